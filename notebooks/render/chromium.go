package render

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ChromiumPath is Debian's Chromium, or $CRDLAB_CHROMIUM.
func ChromiumPath() (string, error) {
	p := os.Getenv("CRDLAB_CHROMIUM")
	if p == "" {
		p = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(p); err != nil {
		return "", fmt.Errorf("no Chromium at %s (apt-get install chromium, or set CRDLAB_CHROMIUM): %w", p, err)
	}
	return p, nil
}

// NewBrowser starts a headless Chromium with a window of width × height
// and returns a context for its first tab; cancel stops it.
func NewBrowser(ctx context.Context, width, height int) (context.Context, context.CancelFunc, error) {
	exe, err := ChromiumPath()
	if err != nil {
		return nil, nil, err
	}
	profile, err := os.MkdirTemp("", "crdlab-render-chromium-")
	if err != nil {
		return nil, nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("allow-file-access-from-files", true),
		chromedp.WindowSize(width, height),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(actx)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(width), int64(height))); err != nil { // starts the browser
		cancelTab()
		cancelAlloc()
		os.RemoveAll(profile)
		return nil, nil, fmt.Errorf("start %s: %w", exe, err)
	}
	return tab, func() { cancelTab(); cancelAlloc(); os.RemoveAll(profile) }, nil
}
