package registry

import (
	"errors"
	"fmt"
	"net/http"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Messages upstream answers with, word for word.
const (
	// OptimisticLockErrorMsg is the Conflict message of an update with a
	// stale resourceVersion.
	OptimisticLockErrorMsg = apierrors.OptimisticLockErrorMsg

	// expiredListMsg: a list at an exact revision older than the
	// compacted one.
	expiredListMsg = "The resourceVersion for the provided list is too old."
	// inconsistentContinueMsg: a continue token whose revision was
	// compacted away.
	inconsistentContinueMsg = "The provided continue parameter is too old to display a consistent list result. " +
		"You can start a new list without the continue parameter, or use the continue token in this response to " +
		"retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - " +
		"objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."
	// resourceVersionSetOnCreateMsg: a create whose object carries a
	// resourceVersion (upstream answers it as a plain 500; crdlab, 400).
	resourceVersionSetOnCreateMsg = "resourceVersion should not be set on objects to be created"
)

// operation is the verb a storage error happened in: the same storage
// error means different things in different verbs (a conflict is a
// precondition failure on delete, an optimistic-lock failure on update).
type operation int

const (
	opGet operation = iota
	opList
	opCreate
	opUpdate
	opDelete
	opWatch
)

func (op operation) String() string {
	return [...]string{"get", "list", "create", "update", "delete", "watch"}[op]
}

// interpretStorageError turns an error of package storage into the API
// error (an *apierrors.StatusError) the client gets; errors that already
// carry a Status pass through, and anything else is a 500. Every REST
// method of this package and its subpackages returns its storage errors
// through here: it is crdlab's one table from storage errors to API errors,
// and package handler never sees a storage error (it writes API errors as
// they are, handler/responsewriters).
//
// Mirrors k8s.io/apiserver/pkg/storage/errors (storeerr):
// InterpretGetError, InterpretListError, InterpretCreateError,
// InterpretUpdateError, InterpretDeleteError, InterpretWatchError, and the
// etcd3 store's interpretListError for compacted revisions.
func interpretStorageError(op operation, err error, gr scheme.GroupResource, name string, continuing bool) error {
	if err == nil {
		return nil
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return err
	}
	var se *storage.Error
	if !errors.As(err, &se) {
		return apierrors.NewInternalError(err)
	}
	switch {
	case errors.Is(err, storage.ErrObjectTooLarge):
		// Upstream: etcd's "request is too large", answered 413.
		return apierrors.NewRequestEntityTooLarge(se.Msg)
	case errors.Is(err, storage.ErrNotFound):
		if op == opList || op == opWatch {
			name = ""
		}
		return apierrors.NewNotFound(gr, name)
	case errors.Is(err, storage.ErrAlreadyExists):
		if op == opCreate {
			return apierrors.NewAlreadyExists(gr, name)
		}
		return apierrors.NewConflict(gr, name, err)
	case errors.Is(err, storage.ErrConflict):
		return apierrors.NewConflict(gr, name, err)
	case errors.Is(err, storage.ErrInvalidObject):
		if op == opUpdate || op == opDelete {
			return apierrors.NewConflict(gr, name, err)
		}
		return apierrors.NewInternalError(err)
	case errors.Is(err, storage.ErrExpired):
		switch {
		case op == opList && continuing:
			return apierrors.NewResourceExpired(inconsistentContinueMsg)
		case op == opList:
			return apierrors.NewResourceExpired(expiredListMsg)
		case se.Msg != "":
			return apierrors.NewResourceExpired(se.Msg)
		default:
			return apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d", se.ResourceVersion))
		}
	case errors.Is(err, storage.ErrTooLargeResourceVersion):
		return newTooLargeResourceVersionError(se)
	case errors.Is(err, storage.ErrBadRequest):
		return apierrors.NewBadRequest(se.Msg)
	case errors.Is(err, storage.ErrTimeout):
		return newServerTimeout(gr, op.String(), 2)
	default:
		return apierrors.NewInternalError(err)
	}
}

// InterpretDeleteError is interpretStorageError for a delete: REST
// storages built on a Store but writing to storage themselves (the CRD
// REST's Delete) answer their storage errors with it.
//
// Mirrors storeerr.InterpretDeleteError.
func InterpretDeleteError(err error, gr scheme.GroupResource, name string) error {
	return interpretStorageError(opDelete, err, gr, name, false)
}

// newTooLargeResourceVersionError: 504 Timeout with a
// ResourceVersionTooLarge cause, so that clients retry after a second.
//
// Mirrors k8s.io/apiserver/pkg/storage.NewTooLargeResourceVersionError.
func newTooLargeResourceVersionError(se *storage.Error) error {
	msg := se.Msg
	if msg == "" {
		msg = fmt.Sprintf("Too large resource version: %d", se.ResourceVersion)
	}
	e := apierrors.NewTimeoutError(msg, 1)
	e.ErrStatus.Details.Causes = []metav1.StatusCause{{
		Type:    metav1.CauseTypeResourceVersionTooLarge,
		Message: "Too large resource version",
	}}
	return e
}

// newServerTimeout: 500 ServerTimeout, "The get operation against X could
// not be completed at this time, please try again."
//
// Mirrors k8s.io/apimachinery/pkg/api/errors.NewServerTimeout.
func newServerTimeout(gr scheme.GroupResource, op string, retryAfterSeconds int) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     http.StatusInternalServerError,
		Reason:   metav1.StatusReasonServerTimeout,
		Details:  &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: op, RetryAfterSeconds: int32(retryAfterSeconds)},
		Message:  fmt.Sprintf("The %s operation against %s could not be completed at this time, please try again.", op, gr.String()),
	}}
}

// errResourceVersionSetOnCreate answers a create whose object has a
// resourceVersion: 400 BadRequest. Upstream answers it as a plain 500
// (storage's ErrResourceVersionSetOnCreate reaches the handler
// uninterpreted); crdlab treats it as the client error it is.
func errResourceVersionSetOnCreate() error {
	return apierrors.NewBadRequest(resourceVersionSetOnCreateMsg)
}

// newGenerateNameConflict: 409 AlreadyExists when a generated name is taken.
//
// Mirrors k8s.io/apimachinery/pkg/api/errors.NewGenerateNameConflict.
func newGenerateNameConflict(gr scheme.GroupResource, name string, retryAfterSeconds int) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     http.StatusConflict,
		Reason:   metav1.StatusReasonAlreadyExists,
		Details: &metav1.StatusDetails{
			Group: gr.Group, Kind: gr.Resource, Name: name,
			RetryAfterSeconds: int32(retryAfterSeconds),
		},
		Message: fmt.Sprintf("%s %q already exists, the server was not able to generate a unique name for the object", gr.String(), name),
	}}
}
