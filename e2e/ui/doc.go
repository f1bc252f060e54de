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
// TestPage_Load checks issue 11's "fast with 1,000 events/s" for
// correctness, not speed: against `crdlab serve --trace --trace-log none`
// with the CRD Established, eight Go clients patch 64 CronTabs over
// loopback HTTP at about 1,000 trace events a second for five seconds
// (each patch makes five: the handler's request and response, the
// registry's, storage's commit and the fan-out to a watch on the crontabs
// the test holds open), while a Go reader of /debug/crdlab/events counts
// what the server emitted. The page must end up holding the server's last
// event with every one received or reported dropped (window.crdlab's
// events + dropped = lastSeq), throw nothing, keep the list at most 500
// rows, still show the CRD Established and answer a click on pause during
// the load. It asserts no timing and logs its figures: events/s driven,
// the page's frames a second (a requestAnimationFrame counter the test
// puts in the page), the longest frame gap and how long events waited to
// reach the page and its list. BenchmarkPage_Events reports the same
// figures with b.ReportMetric, for docs/perf.md:
//
//	cd e2e && go test -run '^$' -bench Page -benchtime 1x ./ui
//
// The browser is /usr/bin/chromium (Debian's chromium package) or the one
// named by CRDLAB_CHROMIUM. A missing browser fails the tests, with a
// message saying how to install one; they never skip.
//
// Every wait is a poll of the page with a deadline; none is a bare sleep
// (the load's sleeps are its schedule of writes, not waits).
package ui
