// Package ui checks crdlab's live web view (the root module's package ui)
// the way a class sees it: in a real browser, Debian's headless Chromium
// driven over the Chrome DevTools Protocol by github.com/chromedp/chromedp,
// against a real `crdlab serve` process.
//
// TestPage_CRDLifecycle starts `crdlab serve --trace`, opens /ui/, creates
// the CronTab CRD over plain HTTP and waits, through the page's DOM, for
// its panel to reach Established, for the CRD's path through the
// components (handler … controller) and for its rows in the event list;
// then deletes it and waits for the panel to go. It saves a screenshot of
// the page to testoutput/ui-established.png (CI keeps it as an artifact)
// and, with CRDLAB_WRITE_SCREENSHOT=1, to docs/ui.png for the README:
//
//	cd e2e && CRDLAB_WRITE_SCREENSHOT=1 go test -count=1 ./ui
//
// TestPage_TracingOff checks what a server without --trace shows.
//
// The browser is /usr/bin/chromium (Debian's chromium package) or the one
// named by CRDLAB_CHROMIUM. A missing browser fails the tests, with a
// message saying how to install one; they never skip.
//
// Every wait is a poll of the page with a deadline; none is a bare sleep.
package ui
