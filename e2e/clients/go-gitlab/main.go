// Command go-gitlab-e2e drives the identity catalogue with go-gitlab 0.73.1 (github.com/xanzy/go-gitlab),
// the Go client our users script against. It exists because go-gitlab differs from gitbeaker and
// python-gitlab in ways only a real run shows: an unauthenticated first contact on GET /api/v4/, project
// paths PathEscape-d ("a%2Fb%2Fc"), JSON bodies with explicit nulls, pagination through X-Next-Page
// alone, strict JSON decoding of timestamps into time.Time, and errors read from the status code.
//
// Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... go-gitlab-e2e
// Prints one JSON line {"ok":true,"checked":[...]}, or {"ok":false,"error":"..."} and exits 1 at the first
// failure. Retries are off (go-gitlab retries every 5xx by default) so a failure surfaces at once.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
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

// firstContact repeats what go-gitlab does before its first request (the rate-limiter probe): an
// unauthenticated GET of the API root. GitLab answers it with JSON; so must we.
func firstContact(url string) {
	httpClient := &http.Client{Timeout: 10 * time.Second}
	resp, err := httpClient.Get(url + "/api/v4/")
	must("GET /api/v4/", err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	must("GET /api/v4/ body", err)
	check(json.Valid(body), "GET /api/v4/: %d %q, body is not JSON: %.200q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	check(resp.StatusCode < 500, "GET /api/v4/: status %d", resp.StatusCode)
}

func run(url, token string) []string {
	suffix := strconv.FormatInt(time.Now().UnixMilli(), 36)
	var checked []string

	firstContact(url)
	checked = append(checked, "first contact")

	root := newClient(url, token)
	me, _, err := root.Users.CurrentUser()
	must("current user", err)
	check(me.Username == "root" && me.ID == 1 && me.IsAdmin, "current user: %+v", me)
	checked = append(checked, "auth")

	user, _, err := root.Users.CreateUser(&gitlab.CreateUserOptions{
		Username:         gitlab.String("go" + suffix),
		Name:             gitlab.String("Go Dev"),
		Email:            gitlab.String("go" + suffix + "@example.com"),
		Password:         gitlab.String("long-enough-pass"),
		SkipConfirmation: gitlab.Bool(true),
	})
	must("create user", err)
	check(user.ID > 1 && user.Username == "go"+suffix, "created user: %+v", user)
	pat, _, err := root.Users.CreatePersonalAccessToken(user.ID, &gitlab.CreatePersonalAccessTokenOptions{
		Name:   gitlab.String("go"),
		Scopes: &[]string{"api"},
	})
	must("create personal access token", err)
	check(pat.Token != "" && pat.UserID == user.ID, "personal access token: %+v", pat)
	dev := newClient(url, pat.Token)
	devMe, _, err := dev.Users.CurrentUser()
	must("current user with the new token", err)
	check(devMe.ID == user.ID, "token authenticates as %d, want %d", devMe.ID, user.ID)
	checked = append(checked, "user+token")

	group, _, err := root.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name:       gitlab.String("gog" + suffix),
		Path:       gitlab.String("gog" + suffix),
		Visibility: gitlab.Visibility(gitlab.PrivateVisibility),
	})
	must("create group", err)
	sub, _, err := root.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name:     gitlab.String("sub"),
		Path:     gitlab.String("sub"),
		ParentID: gitlab.Int(group.ID),
	})
	must("create subgroup", err)
	check(sub.FullPath == "gog"+suffix+"/sub", "subgroup full_path %q", sub.FullPath)
	project, _, err := root.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name:        gitlab.String("proj"),
		NamespaceID: gitlab.Int(sub.ID),
	})
	must("create project", err)
	fullPath := "gog" + suffix + "/sub/proj"
	check(project.PathWithNamespace == fullPath, "project path_with_namespace %q", project.PathWithNamespace)
	byPath, _, err := root.Projects.GetProject(fullPath, nil) // sent as gog…%2Fsub%2Fproj
	must("get project by full path", err)
	check(byPath.ID == project.ID, "project by path: id %d, want %d", byPath.ID, project.ID)
	checked = append(checked, "groups+projects by path")

	member, _, err := root.GroupMembers.AddGroupMember(group.ID, &gitlab.AddGroupMemberOptions{
		UserID:      gitlab.Int(user.ID),
		AccessLevel: gitlab.AccessLevel(gitlab.DeveloperPermissions),
	})
	must("add group member", err)
	check(member.ID == user.ID && member.AccessLevel == 30, "added member: %+v", member)
	member, _, err = root.GroupMembers.EditGroupMember(group.ID, user.ID, &gitlab.EditGroupMemberOptions{
		AccessLevel: gitlab.AccessLevel(gitlab.MaintainerPermissions),
	})
	must("edit group member", err)
	check(member.AccessLevel == 40, "edited member access_level %d", member.AccessLevel)
	member, _, err = root.GroupMembers.GetGroupMember(group.ID, user.ID)
	must("get group member", err)
	check(member.AccessLevel == 40, "fetched member access_level %d", member.AccessLevel)
	inherited, _, err := dev.Projects.GetProject(project.ID, nil)
	must("member reads the project through the parent group", err)
	check(inherited.ID == project.ID, "inherited project id %d", inherited.ID)
	_, resp, err := root.GroupMembers.AddGroupMember(group.ID, &gitlab.AddGroupMemberOptions{
		UserID:      gitlab.Int(user.ID),
		AccessLevel: gitlab.AccessLevel(gitlab.DeveloperPermissions),
	})
	var errResp *gitlab.ErrorResponse
	check(errors.As(err, &errResp), "adding an existing member: want an ErrorResponse, got %v", err)
	check(errResp.Response.StatusCode == http.StatusConflict && resp != nil && resp.StatusCode == http.StatusConflict,
		"adding an existing member: %v", err)
	checked = append(checked, "members")

	prefix := "golist" + suffix
	want := map[int]bool{}
	for i := 0; i < 5; i++ {
		p, _, err := root.Projects.CreateProject(&gitlab.CreateProjectOptions{Name: gitlab.String(fmt.Sprintf("%s-%d", prefix, i))})
		must("create list project", err)
		want[p.ID] = true
	}
	got := map[int]bool{}
	opt := &gitlab.ListProjectsOptions{Search: gitlab.String(prefix), ListOptions: gitlab.ListOptions{PerPage: 2}}
	pages := 0
	for {
		list, resp, err := root.Projects.ListProjects(opt)
		must(fmt.Sprintf("list projects page %d", opt.Page), err)
		pages++
		check(pages <= 5, "pagination does not end: X-Next-Page %d after %d pages", resp.NextPage, pages)
		check(resp.TotalItems == 5 && resp.TotalPages == 3 && resp.ItemsPerPage == 2,
			"page %d headers: X-Total %d, X-Total-Pages %d, X-Per-Page %d", pages, resp.TotalItems, resp.TotalPages, resp.ItemsPerPage)
		for _, p := range list {
			check(!got[p.ID], "project %d listed twice", p.ID)
			got[p.ID] = true
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	check(pages == 3 && len(got) == 5 && sameKeys(got, want), "listed %v in %d pages, want %v", keys(got), pages, keys(want))
	checked = append(checked, "pagination")

	starred, _, err := root.Projects.StarProject(project.ID)
	must("star project", err)
	check(starred.StarCount == 1, "star_count after star %d", starred.StarCount)
	unstarred, _, err := root.Projects.UnstarProject(fullPath)
	must("unstar project", err)
	check(unstarred.StarCount == 0, "star_count after unstar %d", unstarred.StarCount)
	resp, err = root.Projects.DeleteProject(project.ID)
	must("delete project", err)
	check(resp.StatusCode == http.StatusAccepted, "delete project: status %d, want 202", resp.StatusCode)
	resp, err = root.GroupMembers.RemoveGroupMember(group.ID, user.ID, nil)
	must("remove group member", err)
	check(resp.StatusCode == http.StatusNoContent, "remove group member: status %d, want 204", resp.StatusCode)
	checked = append(checked, "star+delete")

	return append(checked, runDiscussions(root, suffix)...)
}

// runDiscussions drives the discussions service: issue notes and threads, the iids[] filter, a merge
// request diff note whose position goes out as JSON with "line_range": null (go-gitlab has no omitempty
// there), resolving a thread with a JSON body, and paging threads through X-Next-Page. go-gitlab 0.73.1
// types a commit as an int in its commit-discussion paths, so commit threads are covered by the other clients.
func runDiscussions(root *gitlab.Client, suffix string) []string {
	var checked []string
	group, _, err := root.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name:       gitlab.String("god" + suffix),
		Path:       gitlab.String("god" + suffix),
		Visibility: gitlab.Visibility(gitlab.PrivateVisibility),
	})
	must("discussions: create group", err)
	project, _, err := root.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name:        gitlab.String("app"),
		NamespaceID: gitlab.Int(group.ID),
	})
	must("discussions: create project", err)

	var issueIIDs []int
	for _, title := range []string{"Bug", "Other", "Third"} {
		issue, _, err := root.Issues.CreateIssue(project.ID, &gitlab.CreateIssueOptions{Title: gitlab.String(title)})
		must("create issue", err)
		issueIIDs = append(issueIIDs, issue.IID)
	}
	check(issueIIDs[0] == 1 && issueIIDs[2] == 3, "issue iids %v", issueIIDs)
	filtered, _, err := root.Issues.ListProjectIssues(project.ID, &gitlab.ListProjectIssuesOptions{IIDs: &[]int{1, 3}})
	must("list issues by iids[]", err)
	check(len(filtered) == 2 && filtered[0].IID+filtered[1].IID == 4, "issues by iids[] 1,3: %d found", len(filtered))
	issue := issueIIDs[0]

	single, _, err := root.Notes.CreateIssueNote(project.ID, issue, &gitlab.CreateIssueNoteOptions{Body: gitlab.String("single")})
	must("create issue note", err)
	check(single.Body == "single" && !single.System && single.NoteableIID == issue, "issue note: %+v", single)
	thread, _, err := root.Discussions.CreateIssueDiscussion(project.ID, issue, &gitlab.CreateIssueDiscussionOptions{Body: gitlab.String("Steps?")})
	must("create issue thread", err)
	check(len(thread.ID) == 40 && !thread.IndividualNote && len(thread.Notes) == 1, "issue thread: %+v", thread)
	reply, _, err := root.Discussions.AddIssueDiscussionNote(project.ID, issue, thread.ID, &gitlab.AddIssueDiscussionNoteOptions{Body: gitlab.String("Click")})
	must("reply to issue thread", err)
	check(reply.Type == gitlab.DiscussionNote, "reply type %q", reply.Type)
	edited, _, err := root.Discussions.UpdateIssueDiscussionNote(project.ID, issue, thread.ID, reply.ID, &gitlab.UpdateIssueDiscussionNoteOptions{Body: gitlab.String("Click twice")})
	must("edit issue thread note", err)
	check(edited.Body == "Click twice" && edited.UpdatedAt != nil, "edited note: %+v", edited)
	resp, err := root.Discussions.DeleteIssueDiscussionNote(project.ID, issue, thread.ID, reply.ID)
	must("delete issue thread note", err)
	check(resp.StatusCode == http.StatusNoContent, "delete note: status %d, want 204", resp.StatusCode)
	shown, _, err := root.Discussions.GetIssueDiscussion(project.ID, issue, thread.ID)
	must("get issue thread", err)
	check(len(shown.Notes) == 1 && shown.Notes[0].Body == "Steps?", "thread after delete: %d notes", len(shown.Notes))
	checked = append(checked, "discussions: issues")

	for i, branch := range []string{"main", "feature"} {
		_, _, err := root.Commits.CreateCommit(project.ID, &gitlab.CreateCommitOptions{
			Branch:        gitlab.String(branch),
			CommitMessage: gitlab.String("Commit " + branch),
			Actions: []*gitlab.CommitActionOptions{{
				Action:   gitlab.FileAction(gitlab.FileCreate),
				FilePath: gitlab.String(fmt.Sprintf("f%d.go", i)),
				Content:  gitlab.String("package f"),
			}},
		})
		must("create commit on "+branch, err)
	}
	mr, _, err := root.MergeRequests.CreateMergeRequest(project.ID, &gitlab.CreateMergeRequestOptions{
		Title:        gitlab.String("Feature"),
		SourceBranch: gitlab.String("feature"),
		TargetBranch: gitlab.String("main"),
	})
	must("create merge request", err)
	check(len(mr.DiffRefs.HeadSha) == 40 && len(mr.DiffRefs.BaseSha) == 40, "diff_refs: %+v", mr.DiffRefs)
	mrs, _, err := root.MergeRequests.ListProjectMergeRequests(project.ID, &gitlab.ListProjectMergeRequestsOptions{IIDs: &[]int{mr.IID}})
	must("list merge requests by iids[]", err)
	check(len(mrs) == 1 && mrs[0].IID == mr.IID, "merge requests by iids[]: %d found", len(mrs))
	diff, _, err := root.Discussions.CreateMergeRequestDiscussion(project.ID, mr.IID, &gitlab.CreateMergeRequestDiscussionOptions{
		Body: gitlab.String("nit"),
		Position: &gitlab.NotePosition{
			BaseSHA:      mr.DiffRefs.BaseSha,
			StartSHA:     mr.DiffRefs.StartSha,
			HeadSHA:      mr.DiffRefs.HeadSha,
			PositionType: "text",
			NewPath:      "f1.go",
			OldPath:      "f1.go",
			NewLine:      1,
		},
	})
	must("create merge request diff thread", err)
	first := diff.Notes[0]
	check(first.Type == gitlab.DiffNote && first.Resolvable && first.Position != nil &&
		first.Position.NewLine == 1 && first.Position.HeadSHA == mr.DiffRefs.HeadSha, "diff note: %+v", first)
	_, _, err = root.Discussions.AddMergeRequestDiscussionNote(project.ID, mr.IID, diff.ID, &gitlab.AddMergeRequestDiscussionNoteOptions{Body: gitlab.String("fixed")})
	must("reply to diff thread", err)
	checked = append(checked, "discussions: diff note")

	resolved, _, err := root.Discussions.ResolveMergeRequestDiscussion(project.ID, mr.IID, diff.ID, &gitlab.ResolveMergeRequestDiscussionOptions{Resolved: gitlab.Bool(true)})
	must("resolve merge request thread", err)
	check(len(resolved.Notes) == 2, "resolved thread notes %d", len(resolved.Notes))
	for _, n := range resolved.Notes {
		check(n.Resolved && n.ResolvedBy.ID == 1 && n.ResolvedAt != nil, "resolved note: %+v", n)
	}
	checked = append(checked, "discussions: resolve")

	paged := issueIIDs[1]
	for i := 0; i < 5; i++ {
		_, _, err := root.Discussions.CreateIssueDiscussion(project.ID, paged, &gitlab.CreateIssueDiscussionOptions{Body: gitlab.String(fmt.Sprintf("thread %d", i))})
		must("create thread to page", err)
	}
	opt := &gitlab.ListIssueDiscussionsOptions{PerPage: 2}
	var bodies []string
	for pages := 1; ; pages++ {
		list, resp, err := root.Discussions.ListIssueDiscussions(project.ID, paged, opt)
		must(fmt.Sprintf("list threads page %d", opt.Page), err)
		check(pages <= 3 && resp.TotalItems == 5 && resp.TotalPages == 3, "threads page %d: X-Total %d, X-Total-Pages %d", pages, resp.TotalItems, resp.TotalPages)
		for _, d := range list {
			bodies = append(bodies, d.Notes[0].Body)
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	check(strings.Join(bodies, ",") == "thread 0,thread 1,thread 2,thread 3,thread 4", "paged threads %v", bodies)
	checked = append(checked, "discussions: pagination")
	return checked
}

func sameKeys(a, b map[int]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
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
	checked := run(url, token)
	_ = out.Encode(map[string]any{"ok": true, "checked": checked})
}
