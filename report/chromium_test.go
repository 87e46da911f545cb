package report

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// harness loads a page in an iframe and, once everything has loaded,
// writes into its own DOM whether every image of the page decoded.
const harness = `<!DOCTYPE html><html><body><pre id="out">pending</pre>
<iframe id="page" src="PAGE"></iframe>
<script>
window.addEventListener('load', () => {
  const d = document.getElementById('page').contentDocument;
  const bad = [];
  if (!d || !d.body) { bad.push('the page did not load'); }
  else { for (const img of d.images) if (!img.complete || img.naturalWidth === 0) bad.push('image ' + img.getAttribute('src').slice(0, 60)); }
  document.getElementById('out').textContent = bad.length ? 'BROKEN ' + bad.join('; ') : 'OK';
});
</script></body></html>`

var harnessOut = regexp.MustCompile(`<pre id="out">([^<]*)</pre>`)

// Every committed index.html loads in headless Chromium with every image
// decoded and nothing on the console (the pages have no scripts, so any
// console message is an error). Set REPRO_CHROMIUM=1 to run it (.ci/run
// does, after installing Debian's chromium); REPRO_CHROMIUM=require also
// fails where no chromium is installed.
func TestCommittedPagesInChromium(t *testing.T) {
	mode := os.Getenv("REPRO_CHROMIUM")
	if mode == "" {
		t.Skip("REPRO_CHROMIUM not set: the pages are not loaded in a browser")
	}
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if mode == "require" {
			t.Fatalf("REPRO_CHROMIUM=require, but: %v", err)
		}
		t.Skipf("no chromium: %v", err)
	}
	dir := t.TempDir()
	for _, page := range committedPages(t) {
		abs, err := filepath.Abs(page)
		if err != nil {
			t.Fatal(err)
		}
		h := filepath.Join(dir, "harness.html")
		if err := os.WriteFile(h, []byte(strings.Replace(harness, "PAGE", "file://"+filepath.ToSlash(abs), 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
			"--allow-file-access-from-files", "--enable-logging=stderr", "--v=0",
			"--user-data-dir="+filepath.Join(dir, "profile"), "--virtual-time-budget=10000",
			"--dump-dom", "file://"+filepath.ToSlash(h))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Errorf("%s: chromium: %v\n%s", page, err, stderr.String())
			continue
		}
		m := harnessOut.FindSubmatch(out)
		switch {
		case m == nil:
			t.Errorf("%s: no verdict in chromium's DOM:\n%s", page, out)
		case string(m[1]) != "OK":
			t.Errorf("%s: %s", page, m[1])
		}
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.Contains(l, ":CONSOLE") {
				t.Errorf("%s: console: %s", page, l)
			}
		}
	}
}
