// Command go-gitlab-e2e drives the identity catalogue and the discussions service with go-gitlab 0.73.1
// (github.com/xanzy/go-gitlab), the Go client our users script against. It exists because go-gitlab differs
// from gitbeaker and python-gitlab in ways only a real run shows: an unauthenticated first contact on GET
// /api/v4/, project paths PathEscape-d ("a%2Fb%2Fc"), JSON bodies with explicit nulls, pagination through
// X-Next-Page alone, strict JSON decoding of timestamps into time.Time, and errors read from the status code.
//
// Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... go-gitlab-e2e <scenario>
// Each scenario creates the users, groups and projects it needs, under names of its own. Prints one JSON
// line {"ok":true,"checked":["<scenario>"]}, or {"ok":false,"error":"..."} and exits 1 at the first
// failure. Retries are off (go-gitlab retries every 5xx by default) so a failure surfaces at once.
package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/xanzy/go-gitlab"
)

type failure struct{ msg string }

// fail stops the run with a message; main turns it into the JSON error line.
func fail(format string, args ...any) {
	panic(failure{fmt.Sprintf(format, args...)})
}

// must fails on a client error, naming the step.
func must(step string, err error) {
	if err != nil {
		fail("%s: %v", step, err)
	}
}

func check(cond bool, format string, args ...any) {
	if !cond {
		fail(format, args...)
	}
}

func newClient(url, token string) *gitlab.Client {
	client, err := gitlab.NewClient(token, gitlab.WithBaseURL(url+"/api/v4"), gitlab.WithoutRetries())
	must("new client", err)
	return client
}

// run is what every scenario gets: the gateway URL, a root client, and a suffix that keeps this run's
// names apart from every other run's.
type run struct {
	url    string
	root   *gitlab.Client
	suffix string
}

var scenarios = map[string]func(*run){
	"first contact":           firstContact,
	"auth":                    auth,
	"user+token":              userAndToken,
	"groups+projects by path": groupsAndProjectsByPath,
	"members":                 members,
	"pagination":              pagination,
	"star+delete":             starAndDelete,
	"discussions: issues":     discussionIssues,
	"discussions: diff note":  discussionDiffNote,
	"discussions: resolve":    discussionResolve,
	"discussions: pagination": discussionPagination,
}

func scenarioNames() []string {
	names := make([]string, 0, len(scenarios))
	for name := range scenarios {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func main() {
	url, token := strings.TrimSuffix(os.Getenv("GL_URL"), "/"), os.Getenv("GL_TOKEN")
	out := json.NewEncoder(os.Stdout)
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprint(r)
			if f, ok := r.(failure); ok {
				msg = f.msg
			}
			_ = out.Encode(map[string]any{"ok": false, "error": msg})
			os.Exit(1)
		}
	}()
	check(url != "" && token != "", "GL_URL and GL_TOKEN must be set")
	check(len(os.Args) == 2 && scenarios[os.Args[1]] != nil, "usage: go-gitlab-e2e <scenario>, one of %q", scenarioNames())
	name := os.Args[1]
	random := make([]byte, 2)
	_, err := rand.Read(random)
	must("random suffix", err)
	scenarios[name](&run{
		url:    url,
		root:   newClient(url, token),
		suffix: strconv.FormatInt(time.Now().UnixMilli(), 36) + hex.EncodeToString(random),
	})
	_ = out.Encode(map[string]any{"ok": true, "checked": []string{name}})
}
