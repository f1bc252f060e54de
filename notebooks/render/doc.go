// Package render shows crdlab's notebooks the way a student sees them:
// it renders the notebooks' diagrams (mermaid sources in
// notebooks/diagrams/*.mmd) to SVG with Debian's Chromium, and its test
// opens every notebook in the Jupyter Notebook that `make notebooks-setup`
// installs (Debian's jupyter-notebook 6.4, whose markdown cells show a
// mermaid block as code) and checks, with a screenshot, that every
// diagram is drawn.
//
// Vocabulary:
//
//   - a source is notebooks/diagrams/NAME.mmd, a mermaid diagram;
//   - its picture is NAME.svg beside it, made by `make diagrams`
//     (go run ./cmd/diagrams), whose first line records the sha256 of the
//     source it was drawn from: nbtool lint (go test ./notebooks/...)
//     fails when a source changed and its picture was not redrawn;
//   - mermaid itself is the npm package mermaid, pinned in
//     cmd/diagrams, fetched with `npm pack` (its self-contained browser
//     bundle, no dependencies, no browser download) into the user's cache.
//
// This is a separate, test-only module because it drives Chromium through
// the DevTools protocol with github.com/chromedp/chromedp (the library the
// e2e module's browser tests use); the main module does not depend on it.
//
// Upstream: none; Kubernetes has no notebooks.
package render
