package main

import "github.com/spf13/cobra"

// Placeholder: replaced by the server work (crdlab serve).
func newServeCommand() *cobra.Command { return &cobra.Command{Use: "serve", Hidden: true} }

// Placeholder: replaced by the server work (crdlab kubeconfig).
func newKubeconfigCommand() *cobra.Command { return &cobra.Command{Use: "kubeconfig", Hidden: true} }
