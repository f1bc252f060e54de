package registry

import "context"

// WarningRecorder collects the warnings of one request; the handler sends
// them as "Warning: 299 - \"...\"" response headers, which kubectl prints.
//
// Mirrors k8s.io/apiserver/pkg/warning.Recorder.
type WarningRecorder interface {
	AddWarning(agent, text string)
}

type warningRecorderKey struct{}

// WithWarningRecorder returns a context whose warnings go to r.
//
// Mirrors k8s.io/apiserver/pkg/warning.WithWarningRecorder.
func WithWarningRecorder(ctx context.Context, r WarningRecorder) context.Context {
	return context.WithValue(ctx, warningRecorderKey{}, r)
}

// AddWarning records a warning for the request of ctx, if it has a
// recorder; otherwise the warning is dropped.
//
// Mirrors k8s.io/apiserver/pkg/warning.AddWarning.
func AddWarning(ctx context.Context, text string) {
	if r, ok := ctx.Value(warningRecorderKey{}).(WarningRecorder); ok && r != nil {
		r.AddWarning("", text)
	}
}
