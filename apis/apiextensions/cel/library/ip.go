package library

import (
	"fmt"
	"net/netip"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// IPLib adds IP addresses (IPv4 and IPv6, no zones, no IPv4-mapped IPv6):
//
//	ip(string) IP     isIP(string) bool     ip.isCanonical(string) bool
//	string(IP) string
//	<IP>.family() int                       4 or 6
//	<IP>.isUnspecified() / isLoopback() / isLinkLocalMulticast() /
//	     isLinkLocalUnicast() / isGlobalUnicast() bool
//
// Mirrors library.IP in k8s.io/apiserver/pkg/cel/library/ip.go.
func IPLib() cel.EnvOption { return cel.Lib(ipLib{}) }

type ipLib struct{}

func (ipLib) LibraryName() string { return "kubernetes.net.ip" }

func (ipLib) CompileOptions() []cel.EnvOption {
	test := func(name, id string, f func(netip.Addr) bool) cel.EnvOption {
		return cel.Function(name, cel.MemberOverload(id, []*cel.Type{IPType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			ip, ok := arg.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return types.Bool(f(ip.Addr))
		})))
	}
	return []cel.EnvOption{
		cel.Types(IPType),
		cel.Function("ip", cel.Overload("string_to_ip", []*cel.Type{cel.StringType}, IPType, cel.UnaryBinding(stringToIP))),
		cel.Function("family", cel.MemberOverload("ip_family", []*cel.Type{IPType}, cel.IntType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			ip, ok := arg.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			switch {
			case ip.Addr.Is4():
				return types.Int(4)
			case ip.Addr.Is6():
				return types.Int(6)
			}
			return types.NewErr("IP address %q is not an IPv4 or IPv6 address", ip.Addr.String())
		}))),
		cel.Function("ip.isCanonical", cel.Overload("ip_is_canonical", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			addr, err := parseIPAddr(s)
			if err != nil {
				return types.NewErr("%v", err)
			}
			return types.Bool(addr.String() == s)
		}))),
		test("isUnspecified", "ip_is_unspecified", netip.Addr.IsUnspecified),
		test("isLoopback", "ip_is_loopback", netip.Addr.IsLoopback),
		test("isLinkLocalMulticast", "ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast),
		test("isLinkLocalUnicast", "ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast),
		test("isGlobalUnicast", "ip_is_global_unicast", netip.Addr.IsGlobalUnicast),
		cel.Function("isIP", cel.Overload("is_ip", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			_, err := parseIPAddr(s)
			return types.Bool(err == nil)
		}))),
		cel.Function("string", cel.Overload("ip_to_string", []*cel.Type{IPType}, cel.StringType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			ip, ok := arg.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return types.String(ip.Addr.String())
		}))),
	}
}

func (ipLib) ProgramOptions() []cel.ProgramOption { return nil }

func stringToIP(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	addr, err := parseIPAddr(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return IP{Addr: addr}
}

// parseIPAddr mirrors parseIPAddr in ip.go: no zone, no IPv4-mapped IPv6.
func parseIPAddr(raw string) (netip.Addr, error) {
	addr, err := netip.ParseAddr(raw)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", raw, err)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", raw)
	}
	if addr.Is4In6() {
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return addr, nil
}

// CIDRLib adds IP prefixes:
//
//	cidr(string) CIDR     isCIDR(string) bool     string(CIDR) string
//	<CIDR>.containsIP(IP|string) bool
//	<CIDR>.containsCIDR(CIDR|string) bool
//	<CIDR>.ip() IP        <CIDR>.prefixLength() int     <CIDR>.masked() CIDR
//
// Mirrors library.CIDR in k8s.io/apiserver/pkg/cel/library/cidr.go.
func CIDRLib() cel.EnvOption { return cel.Lib(cidrLib{}) }

type cidrLib struct{}

func (cidrLib) LibraryName() string { return "kubernetes.net.cidr" }

func (cidrLib) CompileOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Types(CIDRType),
		cel.Function("cidr", cel.Overload("string_to_cidr", []*cel.Type{cel.StringType}, CIDRType, cel.UnaryBinding(stringToCIDR))),
		cel.Function("containsIP",
			cel.MemberOverload("cidr_contains_ip_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return cidrContainsIP(c, stringToIP(s)) })),
			cel.MemberOverload("cidr_contains_ip_ip", []*cel.Type{CIDRType, IPType}, cel.BoolType, cel.BinaryBinding(cidrContainsIP))),
		cel.Function("containsCIDR",
			cel.MemberOverload("cidr_contains_cidr_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return cidrContainsCIDR(c, stringToCIDR(s)) })),
			cel.MemberOverload("cidr_contains_cidr", []*cel.Type{CIDRType, CIDRType}, cel.BoolType, cel.BinaryBinding(cidrContainsCIDR))),
		cel.Function("ip", cel.MemberOverload("cidr_ip", []*cel.Type{CIDRType}, IPType, cidrUnary(func(p netip.Prefix) ref.Val { return IP{Addr: p.Addr()} }))),
		cel.Function("prefixLength", cel.MemberOverload("cidr_prefix_length", []*cel.Type{CIDRType}, cel.IntType, cidrUnary(func(p netip.Prefix) ref.Val { return types.Int(p.Bits()) }))),
		cel.Function("masked", cel.MemberOverload("cidr_masked", []*cel.Type{CIDRType}, CIDRType, cidrUnary(func(p netip.Prefix) ref.Val { return CIDR{Prefix: p.Masked()} }))),
		cel.Function("isCIDR", cel.Overload("is_cidr", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			_, err := parseCIDR(s)
			return types.Bool(err == nil)
		}))),
		cel.Function("string", cel.Overload("cidr_to_string", []*cel.Type{CIDRType}, cel.StringType, cidrUnary(func(p netip.Prefix) ref.Val { return types.String(p.String()) }))),
	}
}

func (cidrLib) ProgramOptions() []cel.ProgramOption { return nil }

func cidrUnary(f func(netip.Prefix) ref.Val) cel.OverloadOpt {
	return cel.UnaryBinding(func(arg ref.Val) ref.Val {
		c, ok := arg.(CIDR)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(c.Prefix)
	})
}

func stringToCIDR(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	p, err := parseCIDR(s)
	if err != nil {
		return types.NewErr("network address parse error during conversion from string: %v", err)
	}
	return CIDR{Prefix: p}
}

func cidrContainsIP(c, ipVal ref.Val) ref.Val {
	cidr, ok := c.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(ipVal)
	}
	ip, ok := ipVal.(IP)
	if !ok {
		return types.MaybeNoSuchOverloadErr(c)
	}
	return types.Bool(cidr.Contains(ip.Addr))
}

func cidrContainsCIDR(c, other ref.Val) ref.Val {
	cidr, ok := c.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(c)
	}
	o, ok := other.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(cidr.Overlaps(o.Prefix) && cidr.Prefix.Bits() <= o.Prefix.Bits())
}

// parseCIDR mirrors parseCIDR in cidr.go (its message is wrapped twice by
// cidr(), as upstream's is).
func parseCIDR(raw string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(raw)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return p, nil
}
