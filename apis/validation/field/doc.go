// Package field describes what is wrong with which field of an object:
// validation returns an ErrorList, and the server turns it into a 422
// Invalid Status whose causes carry each Error's Type (the cause "reason"),
// Field (the path) and message.
//
// Vocabulary: a Path names a field from the object's root
// ("spec.versions[0].name"); an Error is one failure of one field with an
// ErrorType such as FieldValueRequired; an ErrorList is all the failures of
// one object.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/util/validation/field: path.go, errors.go
//
// Differences from upstream:
//   - no Origin / CoveredByDeclarative markers, no WithOrigin, no
//     ErrorList.ExtractCoveredByDeclarative (declarative validation is not here).
//   - ToAggregate returns *AggregateError instead of utilerrors.Aggregate;
//     its message has the same shape.
package field
