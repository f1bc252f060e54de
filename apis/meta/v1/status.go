package v1

// Status is the body of every error answer, and of some successes (delete).
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.Status.
type Status struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata"`
	// Status is StatusSuccess or StatusFailure.
	Status  string         `json:"status,omitempty"`
	Message string         `json:"message,omitempty"`
	Reason  StatusReason   `json:"reason,omitempty"`
	Details *StatusDetails `json:"details,omitempty"`
	Code    int32          `json:"code,omitempty"`
}

// StatusDetails names the object an error is about and its causes.
type StatusDetails struct {
	Name              string        `json:"name,omitempty"`
	Group             string        `json:"group,omitempty"`
	Kind              string        `json:"kind,omitempty"`
	UID               UID           `json:"uid,omitempty"`
	Causes            []StatusCause `json:"causes,omitempty"`
	RetryAfterSeconds int32         `json:"retryAfterSeconds,omitempty"`
}

// StatusCause is one reason for an error, usually tied to a field path.
type StatusCause struct {
	Type    CauseType `json:"reason,omitempty"`
	Message string    `json:"message,omitempty"`
	Field   string    `json:"field,omitempty"`
}

// Values of Status.Status.
const (
	StatusSuccess = "Success"
	StatusFailure = "Failure"
)

// StatusReason is the machine-readable reason of a failure.
type StatusReason string

// The reasons crdlab answers with, spelled as upstream's.
const (
	StatusReasonUnknown               StatusReason = ""
	StatusReasonUnauthorized          StatusReason = "Unauthorized"
	StatusReasonForbidden             StatusReason = "Forbidden"
	StatusReasonNotFound              StatusReason = "NotFound"
	StatusReasonAlreadyExists         StatusReason = "AlreadyExists"
	StatusReasonConflict              StatusReason = "Conflict"
	StatusReasonGone                  StatusReason = "Gone"
	StatusReasonInvalid               StatusReason = "Invalid"
	StatusReasonServerTimeout         StatusReason = "ServerTimeout"
	StatusReasonTimeout               StatusReason = "Timeout"
	StatusReasonTooManyRequests       StatusReason = "TooManyRequests"
	StatusReasonBadRequest            StatusReason = "BadRequest"
	StatusReasonMethodNotAllowed      StatusReason = "MethodNotAllowed"
	StatusReasonNotAcceptable         StatusReason = "NotAcceptable"
	StatusReasonRequestEntityTooLarge StatusReason = "RequestEntityTooLarge"
	StatusReasonUnsupportedMediaType  StatusReason = "UnsupportedMediaType"
	StatusReasonInternalError         StatusReason = "InternalError"
	StatusReasonExpired               StatusReason = "Expired"
	StatusReasonServiceUnavailable    StatusReason = "ServiceUnavailable"
)

// CauseType is the machine-readable kind of a StatusCause.
type CauseType string

// Cause types, spelled as upstream's (most come from field.ErrorType).
const (
	CauseTypeFieldValueNotFound       CauseType = "FieldValueNotFound"
	CauseTypeFieldValueRequired       CauseType = "FieldValueRequired"
	CauseTypeFieldValueDuplicate      CauseType = "FieldValueDuplicate"
	CauseTypeFieldValueInvalid        CauseType = "FieldValueInvalid"
	CauseTypeFieldValueNotSupported   CauseType = "FieldValueNotSupported"
	CauseTypeFieldValueForbidden      CauseType = "FieldValueForbidden"
	CauseTypeFieldValueTooLong        CauseType = "FieldValueTooLong"
	CauseTypeFieldValueTooMany        CauseType = "FieldValueTooMany"
	CauseTypeFieldValueTypeInvalid    CauseType = "FieldValueTypeInvalid"
	CauseTypeInternal                 CauseType = "InternalError"
	CauseTypeUnexpectedServerResponse CauseType = "UnexpectedServerResponse"
	CauseTypeFieldManagerConflict     CauseType = "FieldManagerConflict"
	CauseTypeResourceVersionTooLarge  CauseType = "ResourceVersionTooLarge"
)
