package protobuf_test

import (
	"fmt"
	"os"

	"github.com/crdlab/crdlab/handler/protobuf"
)

// A DELETE from client-go's typed apiextensions clientset carries its
// DeleteOptions in protobuf: the "k8s\x00" prefix, then a runtime.Unknown
// naming the kind and holding the message. ToJSON gives what a JSON client
// would have sent.
func ExampleToJSON() {
	body, err := os.ReadFile("testdata/delete-options.pb") // written by upstream's serializer
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q…\n", body[:12])
	j, err := protobuf.ToJSON(body)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(j))
	// Output:
	// "k8s\x00\n(\n\x17apie"…
	// {"apiVersion":"apiextensions.k8s.io/v1","dryRun":["All"],"gracePeriodSeconds":0,"kind":"DeleteOptions","preconditions":{"resourceVersion":"7","uid":"uid-1"},"propagationPolicy":"Foreground"}
}
