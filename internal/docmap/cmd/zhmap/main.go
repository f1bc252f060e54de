package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// labels maps an English bullet label to its Chinese one.
var labels = map[string]string{"crdlab": "crdlab", "upstream": "上游", "see it run": "运行"}

var (
	enBullet = regexp.MustCompile(`^- \*\*(crdlab|upstream|see it run):\*\*(.*)$`)
	zhBullet = regexp.MustCompile(`^- \*\*(crdlab|上游|运行)：\*\*`)
	span     = regexp.MustCompile("`([^`]+)`")
	fileRef  = regexp.MustCompile(`\.(go|ipynb|md)(:|#|$)`)
)

func main() {
	if err := run("docs/map.md", "docs/zh/map.md"); err != nil {
		fmt.Fprintln(os.Stderr, "zhmap:", err)
		os.Exit(1)
	}
}

func run(enPath, zhPath string) error {
	en, err := os.ReadFile(enPath)
	if err != nil {
		return err
	}
	zh, err := os.ReadFile(zhPath)
	if err != nil {
		return err
	}
	lists := bullets(string(en))
	var out []string
	section := ""
	for _, line := range strings.Split(string(zh), "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			section, _, _ = strings.Cut(h, " · ")
			section = strings.TrimSpace(section)
		} else if strings.HasPrefix(line, "## ") {
			section = ""
		}
		if m := zhBullet.FindStringSubmatch(line); m != nil && section != "" {
			label := m[1]
			for enLabel, zhLabel := range labels {
				if zhLabel == label {
					label = enLabel
				}
			}
			refs, ok := lists[section][label]
			if !ok {
				return fmt.Errorf("%s: section %q has no %q list in %s", zhPath, section, label, enPath)
			}
			line = fmt.Sprintf("- **%s：** %s", labels[label], strings.Join(refs, "、"))
		}
		out = append(out, line)
	}
	return os.WriteFile(zhPath, []byte(strings.Join(out, "\n")), 0o644)
}

// bullets returns, for each ### section of the English map, the
// references of its bullet lists by label, each as a code span.
func bullets(md string) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	section, label := "", ""
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			section, label = strings.TrimSpace(line[4:]), ""
			out[section] = map[string][]string{}
			continue
		case strings.HasPrefix(line, "## "):
			section, label = "", ""
			continue
		}
		if section == "" {
			continue
		}
		text := ""
		if m := enBullet.FindStringSubmatch(line); m != nil {
			label, text = m[1], m[2]
		} else if label != "" && strings.HasPrefix(line, "  ") {
			text = line
		} else {
			label = ""
			continue
		}
		for _, s := range span.FindAllStringSubmatch(text, -1) {
			if strings.Contains(s[1], "/") && (strings.HasSuffix(s[1], "/") || fileRef.MatchString(s[1])) {
				out[section][label] = append(out[section][label], "`"+s[1]+"`")
			}
		}
	}
	return out
}
