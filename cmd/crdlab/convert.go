package main

import "github.com/spf13/cobra"

// Placeholder: replaced by the foundation work (crdlab convert).
func newConvertCommand() *cobra.Command { return &cobra.Command{Use: "convert", Hidden: true} }

// Placeholder: replaced by the foundation work (crdlab version).
func newVersionCommand() *cobra.Command { return &cobra.Command{Use: "version", Hidden: true} }
