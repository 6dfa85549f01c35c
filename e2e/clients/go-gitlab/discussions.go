package main

// The discussions scenarios: issue notes and threads, the iids[] filter, a merge request diff note whose
// position goes out as JSON with "line_range": null (go-gitlab has no omitempty there), resolving a thread
// with a JSON body, and paging threads through X-Next-Page. go-gitlab 0.73.1 types a commit as an int in its
// commit-discussion paths, so commit threads are covered by the other clients.

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/xanzy/go-gitlab"
)

// newProject creates the project app in a new private group god…, so its issues start at iid 1.
func (r *run) newProject() *gitlab.Project {
	group, _, err := r.root.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name:       gitlab.String("god" + r.suffix),
		Path:       gitlab.String("god" + r.suffix),
		Visibility: gitlab.Visibility(gitlab.PrivateVisibility),
	})
	must("discussions: create group", err)
	project, _, err := r.root.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name:        gitlab.String("app"),
		NamespaceID: gitlab.Int(group.ID),
	})
	must("discussions: create project", err)
	return project
}

// newIssue creates an issue with the title; returns its iid.
func (r *run) newIssue(project *gitlab.Project, title string) int {
	issue, _, err := r.root.Issues.CreateIssue(project.ID, &gitlab.CreateIssueOptions{Title: gitlab.String(title)})
	must("create issue", err)
	return issue.IID
}

// newMergeRequest commits f0.go on main and f1.go on a new branch feature, and opens feature → main.
func (r *run) newMergeRequest(project *gitlab.Project) *gitlab.MergeRequest {
	for i, branch := range []string{"main", "feature"} {
		_, _, err := r.root.Commits.CreateCommit(project.ID, &gitlab.CreateCommitOptions{
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
	mr, _, err := r.root.MergeRequests.CreateMergeRequest(project.ID, &gitlab.CreateMergeRequestOptions{
		Title:        gitlab.String("Feature"),
		SourceBranch: gitlab.String("feature"),
		TargetBranch: gitlab.String("main"),
	})
	must("create merge request", err)
	check(len(mr.DiffRefs.HeadSha) == 40 && len(mr.DiffRefs.BaseSha) == 40, "diff_refs: %+v", mr.DiffRefs)
	return mr
}

// newDiffThread starts a thread on line 1 of f1.go and replies "fixed"; returns the thread as created.
func (r *run) newDiffThread(project *gitlab.Project, mr *gitlab.MergeRequest) *gitlab.Discussion {
	diff, _, err := r.root.Discussions.CreateMergeRequestDiscussion(project.ID, mr.IID, &gitlab.CreateMergeRequestDiscussionOptions{
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
	_, _, err = r.root.Discussions.AddMergeRequestDiscussionNote(project.ID, mr.IID, diff.ID, &gitlab.AddMergeRequestDiscussionNoteOptions{Body: gitlab.String("fixed")})
	must("reply to diff thread", err)
	return diff
}

func discussionIssues(r *run) {
	project := r.newProject()
	var issueIIDs []int
	for _, title := range []string{"Bug", "Other", "Third"} {
		issueIIDs = append(issueIIDs, r.newIssue(project, title))
	}
	check(issueIIDs[0] == 1 && issueIIDs[2] == 3, "issue iids %v", issueIIDs)
	filtered, _, err := r.root.Issues.ListProjectIssues(project.ID, &gitlab.ListProjectIssuesOptions{IIDs: &[]int{1, 3}})
	must("list issues by iids[]", err)
	check(len(filtered) == 2 && filtered[0].IID+filtered[1].IID == 4, "issues by iids[] 1,3: %d found", len(filtered))
	issue := issueIIDs[0]

	single, _, err := r.root.Notes.CreateIssueNote(project.ID, issue, &gitlab.CreateIssueNoteOptions{Body: gitlab.String("single")})
	must("create issue note", err)
	check(single.Body == "single" && !single.System && single.NoteableIID == issue, "issue note: %+v", single)
	thread, _, err := r.root.Discussions.CreateIssueDiscussion(project.ID, issue, &gitlab.CreateIssueDiscussionOptions{Body: gitlab.String("Steps?")})
	must("create issue thread", err)
	check(len(thread.ID) == 40 && !thread.IndividualNote && len(thread.Notes) == 1, "issue thread: %+v", thread)
	reply, _, err := r.root.Discussions.AddIssueDiscussionNote(project.ID, issue, thread.ID, &gitlab.AddIssueDiscussionNoteOptions{Body: gitlab.String("Click")})
	must("reply to issue thread", err)
	check(reply.Type == gitlab.DiscussionNote, "reply type %q", reply.Type)
	edited, _, err := r.root.Discussions.UpdateIssueDiscussionNote(project.ID, issue, thread.ID, reply.ID, &gitlab.UpdateIssueDiscussionNoteOptions{Body: gitlab.String("Click twice")})
	must("edit issue thread note", err)
	check(edited.Body == "Click twice" && edited.UpdatedAt != nil, "edited note: %+v", edited)
	resp, err := r.root.Discussions.DeleteIssueDiscussionNote(project.ID, issue, thread.ID, reply.ID)
	must("delete issue thread note", err)
	check(resp.StatusCode == http.StatusNoContent, "delete note: status %d, want 204", resp.StatusCode)
	shown, _, err := r.root.Discussions.GetIssueDiscussion(project.ID, issue, thread.ID)
	must("get issue thread", err)
	check(len(shown.Notes) == 1 && shown.Notes[0].Body == "Steps?", "thread after delete: %d notes", len(shown.Notes))
}

func discussionDiffNote(r *run) {
	project := r.newProject()
	mr := r.newMergeRequest(project)
	mrs, _, err := r.root.MergeRequests.ListProjectMergeRequests(project.ID, &gitlab.ListProjectMergeRequestsOptions{IIDs: &[]int{mr.IID}})
	must("list merge requests by iids[]", err)
	check(len(mrs) == 1 && mrs[0].IID == mr.IID, "merge requests by iids[]: %d found", len(mrs))
	first := r.newDiffThread(project, mr).Notes[0]
	check(first.Type == gitlab.DiffNote && first.Resolvable && first.Position != nil &&
		first.Position.NewLine == 1 && first.Position.HeadSHA == mr.DiffRefs.HeadSha, "diff note: %+v", first)
}

func discussionResolve(r *run) {
	project := r.newProject()
	mr := r.newMergeRequest(project)
	diff := r.newDiffThread(project, mr)
	resolved, _, err := r.root.Discussions.ResolveMergeRequestDiscussion(project.ID, mr.IID, diff.ID, &gitlab.ResolveMergeRequestDiscussionOptions{Resolved: gitlab.Bool(true)})
	must("resolve merge request thread", err)
	check(len(resolved.Notes) == 2, "resolved thread notes %d", len(resolved.Notes))
	for _, n := range resolved.Notes {
		check(n.Resolved && n.ResolvedBy.ID == 1 && n.ResolvedAt != nil, "resolved note: %+v", n)
	}
}

func discussionPagination(r *run) {
	project := r.newProject()
	paged := r.newIssue(project, "Other")
	for i := 0; i < 5; i++ {
		_, _, err := r.root.Discussions.CreateIssueDiscussion(project.ID, paged, &gitlab.CreateIssueDiscussionOptions{Body: gitlab.String(fmt.Sprintf("thread %d", i))})
		must("create thread to page", err)
	}
	opt := &gitlab.ListIssueDiscussionsOptions{PerPage: 2}
	var bodies []string
	for pages := 1; ; pages++ {
		list, resp, err := r.root.Discussions.ListIssueDiscussions(project.ID, paged, opt)
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
}
