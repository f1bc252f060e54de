package library

import (
	"net/url"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// URLs adds URLs (only absolute URIs and absolute paths, as
// url.ParseRequestURI takes them):
//
//	url(string) URL                    isURL(string) bool
//	<URL>.getScheme() / getHost() / getHostname() / getPort() / getEscapedPath() string
//	<URL>.getQuery() map<string, list<string>>
//
// Mirrors library.URLs in k8s.io/apiserver/pkg/cel/library/urls.go.
func URLs() cel.EnvOption { return cel.Lib(urlsLib{}) }

type urlsLib struct{}

func (urlsLib) LibraryName() string { return "kubernetes.urls" }

func (urlsLib) CompileOptions() []cel.EnvOption {
	getter := func(name, id string, get func(*url.URL) string) cel.EnvOption {
		return cel.Function(name, cel.MemberOverload(id, []*cel.Type{URLType}, cel.StringType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			u, ok := arg.Value().(*url.URL)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return types.String(get(u))
		})))
	}
	return []cel.EnvOption{
		cel.Function("url", cel.Overload("string_to_url", []*cel.Type{cel.StringType}, URLType, cel.UnaryBinding(stringToURL))),
		cel.Function("isURL", cel.Overload("is_url_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			_, err := url.ParseRequestURI(s)
			return types.Bool(err == nil)
		}))),
		getter("getScheme", "url_get_scheme", func(u *url.URL) string { return u.Scheme }),
		getter("getHost", "url_get_host", func(u *url.URL) string { return u.Host }),
		getter("getHostname", "url_get_hostname", (*url.URL).Hostname),
		getter("getPort", "url_get_port", (*url.URL).Port),
		getter("getEscapedPath", "url_get_escaped_path", (*url.URL).EscapedPath),
		cel.Function("getQuery", cel.MemberOverload("url_get_query", []*cel.Type{URLType}, cel.MapType(cel.StringType, cel.ListType(cel.StringType)),
			cel.UnaryBinding(func(arg ref.Val) ref.Val {
				u, ok := arg.Value().(*url.URL)
				if !ok {
					return types.MaybeNoSuchOverloadErr(arg)
				}
				out := map[ref.Val]ref.Val{}
				for k, v := range u.Query() {
					out[types.String(k)] = types.NewStringList(types.DefaultTypeAdapter, v)
				}
				return types.NewRefValMap(types.DefaultTypeAdapter, out)
			}))),
	}
}

func (urlsLib) ProgramOptions() []cel.ProgramOption { return nil }

func stringToURL(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	if _, err := url.ParseRequestURI(s); err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	u, err := url.Parse(s)
	if err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	return URL{URL: u}
}
