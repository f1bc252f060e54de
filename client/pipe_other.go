//go:build !unix

package client

import (
	"errors"
	"net"
)

const pipeSupported = false

func socketPair() (net.Conn, net.Conn, error) { return nil, nil, errors.ErrUnsupported }
