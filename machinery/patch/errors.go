package patch

import "fmt"

// Code says what went wrong, and so which answer the server gives.
type Code int

// The error codes. Mirrors how apiserver's patch handler classifies
// evanphx/json-patch errors.
const (
	// CodeBadPatch: the patch is not JSON, or not of its format's shape (a
	// JSON patch that is not an array of objects). Answer 400 BadRequest.
	CodeBadPatch Code = iota + 1
	// CodeBadDocument: the document to patch is not valid JSON (the
	// server's own object, so a 500), or CreateMergePatch was given one
	// that is not an object.
	CodeBadDocument
	// CodeNotApplicable: an operation cannot apply (missing path, index
	// out of range, failed test, unknown op). Answer 422.
	CodeNotApplicable
	// CodeTooLarge: more than MaxOperations operations, or copies beyond
	// MaxCopyBytes. Answer 413 RequestEntityTooLarge.
	CodeTooLarge
)

// Sentinels for errors.Is: errors.Is(err, patch.ErrNotApplicable).
var (
	ErrBadPatch      = &Error{Code: CodeBadPatch}
	ErrBadDocument   = &Error{Code: CodeBadDocument}
	ErrNotApplicable = &Error{Code: CodeNotApplicable}
	ErrTooLarge      = &Error{Code: CodeTooLarge}
)

// Error is every error this package returns.
type Error struct {
	Code Code
	// Op is the index of the JSON patch operation that failed, -1 if the
	// error is not about one operation.
	Op  int
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// Is makes errors.Is(err, ErrNotApplicable) true for every error with
// that code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func newError(code Code, op int, format string, args ...any) *Error {
	return &Error{Code: code, Op: op, Msg: fmt.Sprintf(format, args...)}
}
