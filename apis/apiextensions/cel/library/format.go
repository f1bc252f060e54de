package library

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/apis/validation"
	namerules "github.com/crdlab/crdlab/machinery/validation"
)

// FormatLib adds named string formats:
//
//	format.dns1123Label() Format … format.datetime() Format   (see Formats)
//	format.named(string) optional<Format>
//	<Format>.validate(string) optional<list<string>>   none if valid, else the messages
//
// Mirrors library.Format in k8s.io/apiserver/pkg/cel/library/format.go.
func FormatLib() cel.EnvOption { return cel.Lib(formatLib{}) }

type formatLib struct{}

func (formatLib) LibraryName() string { return "kubernetes.format" }

// Formats are the formats by their CEL name (format.<name>()). Each
// ValidateFunc returns upstream's messages.
var Formats = map[string]Format{
	"dns1123Label":           {Name: "DNS1123Label", ValidateFunc: nameCheck(validation.NameIsDNSLabel, false), MaxRegexSize: 30},
	"dns1123Subdomain":       {Name: "DNS1123Subdomain", ValidateFunc: nameCheck(validation.NameIsDNSSubdomain, false), MaxRegexSize: 60},
	"dns1035Label":           {Name: "DNS1035Label", ValidateFunc: nameCheck(validation.NameIsDNS1035Label, false), MaxRegexSize: 30},
	"qualifiedName":          {Name: "QualifiedName", ValidateFunc: namerules.IsQualifiedName, MaxRegexSize: 60},
	"dns1123LabelPrefix":     {Name: "DNS1123LabelPrefix", ValidateFunc: nameCheck(validation.NameIsDNSLabel, true), MaxRegexSize: 30},
	"dns1123SubdomainPrefix": {Name: "DNS1123SubdomainPrefix", ValidateFunc: nameCheck(validation.NameIsDNSSubdomain, true), MaxRegexSize: 60},
	"dns1035LabelPrefix":     {Name: "DNS1035LabelPrefix", ValidateFunc: nameCheck(validation.NameIsDNS1035Label, true), MaxRegexSize: 30},
	"labelValue":             {Name: "LabelValue", ValidateFunc: namerules.IsValidLabelValue, MaxRegexSize: 40},
	"uri": {Name: "URI", MaxRegexSize: 1103, ValidateFunc: func(s string) []string {
		if _, err := url.ParseRequestURI(s); err != nil {
			return []string{err.Error()}
		}
		return nil
	}},
	"uuid":     {Name: "uuid", MaxRegexSize: len(uuidPattern), ValidateFunc: formatCheck(IsUUID, "does not match the UUID format")},
	"byte":     {Name: "byte", MaxRegexSize: 84, ValidateFunc: formatCheck(IsBase64, "invalid base64")},
	"date":     {Name: "date", MaxRegexSize: len(dateTimePattern), ValidateFunc: formatCheck(IsDate, "invalid date")},
	"datetime": {Name: "datetime", MaxRegexSize: len(dateTimePattern), ValidateFunc: formatCheck(IsDateTime, "invalid datetime")},
}

func nameCheck(f validation.ValidateNameFunc, prefix bool) func(string) []string {
	return func(s string) []string { return f(s, prefix) }
}

func formatCheck(ok func(string) bool, msg string) func(string) []string {
	return func(s string) []string {
		if ok(s) {
			return nil
		}
		return []string{msg}
	}
}

func (formatLib) CompileOptions() []cel.EnvOption {
	opts := []cel.EnvOption{
		cel.Function("validate", cel.MemberOverload("format-validate", []*cel.Type{FormatType, cel.StringType}, cel.OptionalType(cel.ListType(cel.StringType)),
			cel.BinaryBinding(func(f, s ref.Val) ref.Val {
				format, ok := f.Value().(Format)
				if !ok {
					return types.MaybeNoSuchOverloadErr(f)
				}
				str, ok := s.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(s)
				}
				if msgs := format.ValidateFunc(str); len(msgs) > 0 {
					return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, msgs))
				}
				return types.OptionalNone
			}))),
		cel.Function("format.named", cel.Overload("format-named", []*cel.Type{cel.StringType}, cel.OptionalType(FormatType),
			cel.UnaryBinding(func(name ref.Val) ref.Val {
				n, ok := name.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(name)
				}
				if f, ok := Formats[n]; ok {
					return types.OptionalOf(f)
				}
				return types.OptionalNone
			}))),
	}
	for name, f := range Formats {
		f := f
		fn := "format." + name
		opts = append(opts, cel.Function(fn, cel.Overload(fn, []*cel.Type{}, FormatType, zeroArgBinding(func() ref.Val { return f }))))
	}
	return opts
}

func (formatLib) ProgramOptions() []cel.ProgramOption { return nil }

// zeroArgBinding binds a function of no arguments (cel-go has bindings for
// one, two or any number).
//
// Mirrors ZeroArgumentFunctionBinding in format.go.
func zeroArgBinding(binding func() ref.Val) decls.OverloadOpt {
	return func(o *decls.OverloadDecl) (*decls.OverloadDecl, error) {
		wrapped, err := decls.FunctionBinding(func(...ref.Val) ref.Val { return binding() })(o)
		if err != nil {
			return nil, err
		}
		if len(wrapped.ArgTypes()) != 0 {
			return nil, fmt.Errorf("function binding must have 0 arguments")
		}
		return o, nil
	}
}

// The string-format checks of kube-openapi's strfmt that CEL uses, exact
// (the schema validator's own format checks live in the structural package).
const (
	uuidPattern     = `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`
	dateTimePattern = `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
	base64Pattern   = `^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`
	// rfc3339FullDate is strfmt.RFC3339FullDate.
	rfc3339FullDate = "2006-01-02"
)

var (
	uuidRE     = regexp.MustCompile(uuidPattern)
	dateTimeRE = regexp.MustCompile(dateTimePattern)
	base64RE   = regexp.MustCompile(base64Pattern)
)

// IsUUID mirrors strfmt.IsUUID.
func IsUUID(s string) bool { return uuidRE.MatchString(s) }

// IsBase64 mirrors govalidator.IsBase64 (strfmt's "byte" check).
func IsBase64(s string) bool { return base64RE.MatchString(s) }

// IsDate mirrors strfmt.IsDate.
func IsDate(s string) bool {
	_, err := time.Parse(rfc3339FullDate, s)
	return err == nil
}

// IsDateTime mirrors strfmt.IsDateTime: a date, "t", and a time matched
// loosely (hours up to 23, minutes and seconds up to 59).
func IsDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !IsDate(parts[0]) {
		return false
	}
	m := dateTimeRE.FindStringSubmatch(parts[1])
	if m == nil {
		return false
	}
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}
