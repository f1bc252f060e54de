package labels

import (
	"strings"

	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
)

// validateKey returns the field error for an invalid key, "" if valid.
// The name rules (and their messages) are machinery/validation's.
func validateKey(key, path string) string {
	if errs := utilvalidation.IsQualifiedName(key); len(errs) > 0 {
		return invalid(path, key, strings.Join(errs, "; "))
	}
	return ""
}
