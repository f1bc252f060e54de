package procs

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// CPUTask times a fixed piece of work on one goroutine, reps times, and returns the median
// in milliseconds: encoding/json decoding a 206 KiB document of nested objects (shaped like
// a CRD's schema: properties with types and descriptions) into generic maps. It allocates
// as an API server's decode does, so the collector and the memory system count as well as
// the core. The same build gives the same figure on the same host; a different figure on
// another day says how much the host itself moved (this machine is a shared VM).
func CPUTask(reps int) (float64, error) {
	doc, err := json.Marshal(cpuTaskSchema(4, 6))
	if err != nil {
		return 0, err
	}
	times := make([]float64, 0, reps)
	for range reps {
		start := time.Now()
		var v any
		if err := json.Unmarshal(doc, &v); err != nil {
			return 0, err
		}
		times = append(times, float64(time.Since(start).Microseconds())/1000)
	}
	if len(times) == 0 {
		return 0, fmt.Errorf("CPUTask: no repetitions")
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// cpuTaskSchema is a schema of the given depth with fanout properties per object.
func cpuTaskSchema(depth, fanout int) map[string]any {
	s := map[string]any{
		"type":        "object",
		"description": "A field of the task's schema, described at about the length real CRDs' descriptions have.",
	}
	if depth == 0 {
		s["type"] = "string"
		return s
	}
	props := map[string]any{}
	for i := range fanout {
		props[fmt.Sprintf("field%d", i)] = cpuTaskSchema(depth-1, fanout)
	}
	s["properties"] = props
	return s
}
