package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// errorFromResponse turns an answer that is not 2xx into an error. A body
// that is a Failure Status is the server's own error and is returned as is,
// so apierrors.IsNotFound, IsConflict … see its reason. Any other body
// (a proxy's HTML page, a plain-text panic) gets a reason from the HTTP code.
//
// Mirrors (rest.Result).Error and (*rest.Request).transformResponse.
func (r *Request) errorFromResponse(resp *http.Response, body []byte) error {
	if status := decodeStatus(body); status != nil && status.Status == metav1.StatusFailure {
		if status.Code == 0 {
			status.Code = int32(resp.StatusCode)
		}
		return apierrors.FromObject(status)
	}
	message := "unknown"
	if isTextResponse(resp) {
		message = strings.TrimSpace(string(truncate(body)))
	}
	var gr scheme.GroupResource
	if r.resource != "" {
		gr = scheme.GroupResource{Group: r.c.groupVersion.Group, Resource: r.resource}
	}
	return newGenericServerResponse(resp.StatusCode, resp.Request.Method, gr, r.resourceName, message, retryAfterSeconds(resp))
}

// decodeStatus returns body as a Status if it is one (kind "Status"), else nil.
func decodeStatus(body []byte) *metav1.Status {
	var status metav1.Status
	if err := json.Unmarshal(body, &status); err != nil || status.Kind != "Status" {
		return nil
	}
	return &status
}

// maxUnstructuredResponseTextBytes caps how much of a non-Status body goes
// into an error message.
const maxUnstructuredResponseTextBytes = 2048

func truncate(body []byte) []byte {
	if len(body) > maxUnstructuredResponseTextBytes {
		return body[:maxUnstructuredResponseTextBytes]
	}
	return body
}

// isTextResponse reports whether the body is text worth quoting: no
// Content-Type, or text/*.
func isTextResponse(resp *http.Response) bool {
	contentType := resp.Header.Get("Content-Type")
	if contentType == "" {
		return true
	}
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && strings.HasPrefix(media, "text/")
}

func retryAfterSeconds(resp *http.Response) int {
	n, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return n
}

// newGenericServerResponse builds the StatusError for an answer whose body is
// not a Status: the reason comes from the HTTP code, the message says so, and
// one cause of type UnexpectedServerResponse carries the server's text.
//
// Mirrors k8s.io/apimachinery/pkg/api/errors.NewGenericServerResponse (with
// isUnexpectedResponse true).
func newGenericServerResponse(code int, verb string, gr scheme.GroupResource, name, serverMessage string, retryAfter int) *apierrors.StatusError {
	reason := metav1.StatusReasonUnknown
	message := fmt.Sprintf("the server responded with the status code %d but did not return more information", code)
	switch code {
	case http.StatusConflict:
		reason = metav1.StatusReasonConflict
		if verb == http.MethodPost {
			reason = metav1.StatusReasonAlreadyExists
		}
		message = "the server reported a conflict"
	case http.StatusNotFound:
		reason = metav1.StatusReasonNotFound
		message = "the server could not find the requested resource"
	case http.StatusBadRequest:
		reason = metav1.StatusReasonBadRequest
		message = "the server rejected our request for an unknown reason"
	case http.StatusUnauthorized:
		reason = metav1.StatusReasonUnauthorized
		message = "the server has asked for the client to provide credentials"
	case http.StatusForbidden:
		reason = metav1.StatusReasonForbidden
		message = serverMessage // it says who may not do what
	case http.StatusNotAcceptable:
		reason = metav1.StatusReasonNotAcceptable
		message = serverMessage
		if message == "" || message == "unknown" {
			message = "the server was unable to respond with a content type that the client supports"
		}
	case http.StatusUnsupportedMediaType:
		reason = metav1.StatusReasonUnsupportedMediaType
		message = serverMessage // it lists the accepted types
	case http.StatusMethodNotAllowed:
		reason = metav1.StatusReasonMethodNotAllowed
		message = "the server does not allow this method on the requested resource"
	case http.StatusUnprocessableEntity:
		reason = metav1.StatusReasonInvalid
		message = "the server rejected our request due to an error in our request"
	case http.StatusServiceUnavailable:
		reason = metav1.StatusReasonServiceUnavailable
		message = "the server is currently unable to handle the request"
	case http.StatusGatewayTimeout:
		reason = metav1.StatusReasonTimeout
		message = "the server was unable to return a response in the time allotted, but may still be processing the request"
	case http.StatusTooManyRequests:
		reason = metav1.StatusReasonTooManyRequests
		message = "the server has received too many requests and has asked us to try again later"
	default:
		if code >= http.StatusInternalServerError {
			reason = metav1.StatusReasonInternalError
			message = fmt.Sprintf("an error on the server (%q) has prevented the request from succeeding", serverMessage)
		}
	}
	switch {
	case gr.Resource != "" && name != "":
		message = fmt.Sprintf("%s (%s %s %s)", message, strings.ToLower(verb), gr.String(), name)
	case gr.Resource != "":
		message = fmt.Sprintf("%s (%s %s)", message, strings.ToLower(verb), gr.String())
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     int32(code),
		Reason:   reason,
		Message:  message,
		Details: &metav1.StatusDetails{
			Group:             gr.Group,
			Kind:              gr.Resource,
			Name:              name,
			Causes:            []metav1.StatusCause{{Type: metav1.CauseTypeUnexpectedServerResponse, Message: serverMessage}},
			RetryAfterSeconds: int32(retryAfter),
		},
	}}
}

// IsUnexpectedServerError reports whether err was made from an answer whose
// body was not a Status (a proxy, a crash), rather than sent by the server.
//
// Mirrors k8s.io/apimachinery/pkg/api/errors.IsUnexpectedServerError.
func IsUnexpectedServerError(err error) bool {
	var s apierrors.APIStatus
	if !errors.As(err, &s) {
		return false
	}
	if d := s.Status().Details; d != nil {
		for _, c := range d.Causes {
			if c.Type == metav1.CauseTypeUnexpectedServerResponse {
				return true
			}
		}
	}
	return false
}
