package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"time"

	"github.com/xanzy/go-gitlab"
)

// newUser creates a user and a personal access token for them; returns the user and a client with the token.
func (r *run) newUser() (*gitlab.User, *gitlab.Client) {
	user, _, err := r.root.Users.CreateUser(&gitlab.CreateUserOptions{
		Username:         gitlab.String("go" + r.suffix),
		Name:             gitlab.String("Go Dev"),
		Email:            gitlab.String("go" + r.suffix + "@example.com"),
		Password:         gitlab.String("long-enough-pass"),
		SkipConfirmation: gitlab.Bool(true),
	})
	must("create user", err)
	check(user.ID > 1 && user.Username == "go"+r.suffix, "created user: %+v", user)
	pat, _, err := r.root.Users.CreatePersonalAccessToken(user.ID, &gitlab.CreatePersonalAccessTokenOptions{
		Name:   gitlab.String("go"),
		Scopes: &[]string{"api"},
	})
	must("create personal access token", err)
	check(pat.Token != "" && pat.UserID == user.ID, "personal access token: %+v", pat)
	return user, newClient(r.url, pat.Token)
}

// newTree creates the private group gog…, its subgroup sub and the project sub/proj; returns the group, the
// subgroup, the project and the project's full path.
func (r *run) newTree() (*gitlab.Group, *gitlab.Group, *gitlab.Project, string) {
	group, _, err := r.root.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name:       gitlab.String("gog" + r.suffix),
		Path:       gitlab.String("gog" + r.suffix),
		Visibility: gitlab.Visibility(gitlab.PrivateVisibility),
	})
	must("create group", err)
	sub, _, err := r.root.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name:     gitlab.String("sub"),
		Path:     gitlab.String("sub"),
		ParentID: gitlab.Int(group.ID),
	})
	must("create subgroup", err)
	project, _, err := r.root.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name:        gitlab.String("proj"),
		NamespaceID: gitlab.Int(sub.ID),
	})
	must("create project", err)
	return group, sub, project, "gog" + r.suffix + "/sub/proj"
}

// addDeveloper adds the user to the group as a developer and checks the answer.
func (r *run) addDeveloper(group *gitlab.Group, user *gitlab.User) {
	member, _, err := r.root.GroupMembers.AddGroupMember(group.ID, &gitlab.AddGroupMemberOptions{
		UserID:      gitlab.Int(user.ID),
		AccessLevel: gitlab.AccessLevel(gitlab.DeveloperPermissions),
	})
	must("add group member", err)
	check(member.ID == user.ID && member.AccessLevel == 30, "added member: %+v", member)
}

// firstContact repeats what go-gitlab does before its first request (the rate-limiter probe): an
// unauthenticated GET of the API root. GitLab answers it with JSON; so must we.
func firstContact(r *run) {
	httpClient := &http.Client{Timeout: 10 * time.Second}
	resp, err := httpClient.Get(r.url + "/api/v4/")
	must("GET /api/v4/", err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	must("GET /api/v4/ body", err)
	check(json.Valid(body), "GET /api/v4/: %d %q, body is not JSON: %.200q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	check(resp.StatusCode < 500, "GET /api/v4/: status %d", resp.StatusCode)
}

func auth(r *run) {
	me, _, err := r.root.Users.CurrentUser()
	must("current user", err)
	check(me.Username == "root" && me.ID == 1 && me.IsAdmin, "current user: %+v", me)
}

func userAndToken(r *run) {
	user, dev := r.newUser()
	devMe, _, err := dev.Users.CurrentUser()
	must("current user with the new token", err)
	check(devMe.ID == user.ID, "token authenticates as %d, want %d", devMe.ID, user.ID)
}

func groupsAndProjectsByPath(r *run) {
	_, sub, project, fullPath := r.newTree()
	check(sub.FullPath == "gog"+r.suffix+"/sub", "subgroup full_path %q", sub.FullPath)
	check(project.PathWithNamespace == fullPath, "project path_with_namespace %q", project.PathWithNamespace)
	byPath, _, err := r.root.Projects.GetProject(fullPath, nil) // sent as gog…%2Fsub%2Fproj
	must("get project by full path", err)
	check(byPath.ID == project.ID, "project by path: id %d, want %d", byPath.ID, project.ID)
}

func members(r *run) {
	user, dev := r.newUser()
	group, _, project, _ := r.newTree()
	r.addDeveloper(group, user)
	member, _, err := r.root.GroupMembers.EditGroupMember(group.ID, user.ID, &gitlab.EditGroupMemberOptions{
		AccessLevel: gitlab.AccessLevel(gitlab.MaintainerPermissions),
	})
	must("edit group member", err)
	check(member.AccessLevel == 40, "edited member access_level %d", member.AccessLevel)
	member, _, err = r.root.GroupMembers.GetGroupMember(group.ID, user.ID)
	must("get group member", err)
	check(member.AccessLevel == 40, "fetched member access_level %d", member.AccessLevel)
	inherited, _, err := dev.Projects.GetProject(project.ID, nil)
	must("member reads the project through the parent group", err)
	check(inherited.ID == project.ID, "inherited project id %d", inherited.ID)
	_, resp, err := r.root.GroupMembers.AddGroupMember(group.ID, &gitlab.AddGroupMemberOptions{
		UserID:      gitlab.Int(user.ID),
		AccessLevel: gitlab.AccessLevel(gitlab.DeveloperPermissions),
	})
	var errResp *gitlab.ErrorResponse
	check(errors.As(err, &errResp), "adding an existing member: want an ErrorResponse, got %v", err)
	check(errResp.Response.StatusCode == http.StatusConflict && resp != nil && resp.StatusCode == http.StatusConflict,
		"adding an existing member: %v", err)
}

func pagination(r *run) {
	prefix := "golist" + r.suffix
	want := map[int]bool{}
	for i := 0; i < 5; i++ {
		p, _, err := r.root.Projects.CreateProject(&gitlab.CreateProjectOptions{Name: gitlab.String(fmt.Sprintf("%s-%d", prefix, i))})
		must("create list project", err)
		want[p.ID] = true
	}
	got := map[int]bool{}
	opt := &gitlab.ListProjectsOptions{Search: gitlab.String(prefix), ListOptions: gitlab.ListOptions{PerPage: 2}}
	pages := 0
	for {
		list, resp, err := r.root.Projects.ListProjects(opt)
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
}

func starAndDelete(r *run) {
	user, _ := r.newUser()
	group, _, project, fullPath := r.newTree()
	r.addDeveloper(group, user)
	starred, _, err := r.root.Projects.StarProject(project.ID)
	must("star project", err)
	check(starred.StarCount == 1, "star_count after star %d", starred.StarCount)
	unstarred, _, err := r.root.Projects.UnstarProject(fullPath)
	must("unstar project", err)
	check(unstarred.StarCount == 0, "star_count after unstar %d", unstarred.StarCount)
	resp, err := r.root.Projects.DeleteProject(project.ID)
	must("delete project", err)
	check(resp.StatusCode == http.StatusAccepted, "delete project: status %d, want 202", resp.StatusCode)
	resp, err = r.root.GroupMembers.RemoveGroupMember(group.ID, user.ID, nil)
	must("remove group member", err)
	check(resp.StatusCode == http.StatusNoContent, "remove group member: status %d, want 204", resp.StatusCode)
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
