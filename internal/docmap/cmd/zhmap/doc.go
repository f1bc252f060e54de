// Command zhmap copies the reference lists of docs/map.md into
// docs/zh/map.md, section by section, keeping the Chinese prose: run it
// after changing a reference in docs/map.md (go test ./internal/docmap
// fails until the two agree).
//
//	go run ./internal/docmap/cmd/zhmap
//
// A section of docs/zh/map.md is matched by its English heading (the part
// of "### EN · 中文" before " · "); its lines "- **crdlab：**",
// "- **上游：**" and "- **运行：**" are rewritten from the English
// section's "- **crdlab:**", "- **upstream:**" and "- **see it run:**".
package main
