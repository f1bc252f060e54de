package library

import (
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/machinery/resource"
)

// The CEL types the libraries add. Their names are upstream's, since they
// show in compile errors ("found no matching overload for 'isLessThan'
// applied to 'kubernetes.Quantity.(int)'").
var (
	URLType      = cel.ObjectType("kubernetes.URL")
	QuantityType = cel.ObjectType("kubernetes.Quantity")
	SemverType   = cel.ObjectType("kubernetes.Semver")
	FormatType   = cel.ObjectType("kubernetes.NamedFormat")
	IPType       = cel.OpaqueType("net.IP")
	CIDRType     = cel.OpaqueType("net.CIDR")

	// The runtime types of URL and Quantity values: upstream gives them no
	// traits (types.NewTypeValue), unlike the declared types above.
	urlRuntimeType      = types.NewTypeValue("kubernetes.URL")
	quantityRuntimeType = types.NewTypeValue("kubernetes.Quantity")
)

// convertError is the error every value type answers to a conversion it
// does not support.
func convertError(from, to any) ref.Val {
	return types.NewErr("type conversion error from '%s' to '%s'", from, to)
}

// URL is a parsed URL. Mirrors apiservercel.URL in k8s.io/apiserver/pkg/cel/url.go.
type URL struct{ *url.URL }

func (d URL) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(d.URL).AssignableTo(typeDesc) {
		return d.URL, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return d.URL.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'URL' to '%v'", typeDesc)
}

func (d URL) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case urlRuntimeType:
		return d
	case types.TypeType:
		return urlRuntimeType
	}
	return convertError(urlRuntimeType, t)
}

func (d URL) Equal(other ref.Val) ref.Val {
	o, ok := other.(URL)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(d.URL.String() == o.URL.String())
}

func (d URL) Type() ref.Type { return urlRuntimeType }
func (d URL) Value() any     { return d.URL }

// Quantity is a resource quantity. Mirrors apiservercel.Quantity in
// k8s.io/apiserver/pkg/cel/quantity.go.
type Quantity struct{ Quantity resource.Quantity }

func (d Quantity) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(d.Quantity).AssignableTo(typeDesc) {
		return d.Quantity, nil
	}
	return nil, fmt.Errorf("type conversion error from 'Quantity' to '%v'", typeDesc)
}

func (d Quantity) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case quantityRuntimeType:
		return d
	case types.TypeType:
		return quantityRuntimeType
	}
	return convertError(quantityRuntimeType, t)
}

// Equal compares values: quantity("1k") == quantity("1000").
func (d Quantity) Equal(other ref.Val) ref.Val {
	o, ok := other.(Quantity)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(d.Quantity.Equal(o.Quantity))
}

func (d Quantity) Type() ref.Type { return quantityRuntimeType }
func (d Quantity) Value() any     { return d.Quantity }

// IP is an IP address without zone. Mirrors apiservercel.IP in
// k8s.io/apiserver/pkg/cel/ip.go.
type IP struct{ netip.Addr }

func (d IP) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(d.Addr).AssignableTo(typeDesc) {
		return d.Addr, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return d.Addr.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'IP' to '%v'", typeDesc)
}

func (d IP) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case IPType:
		return d
	case types.TypeType:
		return IPType
	case types.StringType:
		return types.String(d.Addr.String())
	}
	return convertError(IPType, t)
}

func (d IP) Equal(other ref.Val) ref.Val {
	o, ok := other.(IP)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(d.Addr == o.Addr)
}

func (d IP) Type() ref.Type { return IPType }
func (d IP) Value() any     { return d.Addr }

// Size is the address length in bytes (4 or 16), used by the cost model.
func (d IP) Size() ref.Val {
	return types.Int(int(math.Ceil(float64(d.Addr.BitLen()) / 8)))
}

// CIDR is an IP prefix. Mirrors apiservercel.CIDR in
// k8s.io/apiserver/pkg/cel/cidr.go.
type CIDR struct{ netip.Prefix }

func (d CIDR) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(d.Prefix).AssignableTo(typeDesc) {
		return d.Prefix, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return d.Prefix.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'CIDR' to '%v'", typeDesc)
}

func (d CIDR) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case CIDRType:
		return d
	case types.TypeType:
		return CIDRType
	case types.StringType:
		return types.String(d.Prefix.String())
	}
	return convertError(CIDRType, t)
}

func (d CIDR) Equal(other ref.Val) ref.Val {
	o, ok := other.(CIDR)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(d.Prefix == o.Prefix)
}

func (d CIDR) Type() ref.Type { return CIDRType }
func (d CIDR) Value() any     { return d.Prefix }

// Size is the prefix length in whole bytes, used by the cost model.
func (d CIDR) Size() ref.Val {
	return types.Int(int(math.Ceil(float64(d.Prefix.Bits()) / 8)))
}

// Semver is a semantic version. Mirrors apiservercel.Semver in
// k8s.io/apiserver/pkg/cel/semver.go.
type Semver struct{ Version Version }

func (v Semver) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(v.Version).AssignableTo(typeDesc) {
		return v.Version, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return v.Version.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Semver' to '%v'", typeDesc)
}

func (v Semver) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case SemverType:
		return v
	case types.TypeType:
		return SemverType
	}
	return convertError(SemverType, t)
}

func (v Semver) Equal(other ref.Val) ref.Val {
	o, ok := other.(Semver)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.Version.Compare(o.Version) == 0)
}

func (v Semver) Type() ref.Type { return SemverType }
func (v Semver) Value() any     { return v.Version }

// Format is a named string format (format.dns1123Label() …): validate
// returns its error messages for a string. Mirrors apiservercel.Format in
// k8s.io/apiserver/pkg/cel/format.go.
type Format struct {
	Name         string
	ValidateFunc func(string) []string
	// MaxRegexSize is what the cost model charges per character checked.
	MaxRegexSize int
}

func (d Format) ConvertToNative(typeDesc reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from 'Format' to '%v'", typeDesc)
}

func (d Format) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case FormatType:
		return d
	case types.TypeType:
		return FormatType
	}
	return convertError(FormatType, t)
}

func (d Format) Equal(other ref.Val) ref.Val {
	o, ok := other.(Format)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(d.Name == o.Name)
}

func (d Format) Type() ref.Type { return FormatType }
func (d Format) Value() any     { return d }
