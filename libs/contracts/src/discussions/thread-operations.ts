import type { NoteableTypeName } from './entities';

/** The operation ids of one noteable kind's thread routes (lib/api/discussions.rb). */
export interface ThreadOperationIds {
  listDiscussions: string;
  getDiscussion: string;
  createDiscussion: string;
  listDiscussionNotes: string;
  addDiscussionNote: string;
  getDiscussionNote: string;
  updateDiscussionNote: string;
  deleteDiscussionNote: string;
}

/** The operation ids of one noteable kind's Notes API (lib/api/notes.rb). */
export interface NoteOperationIds {
  listNotes: string;
  createNote: string;
  getNote: string;
  updateNote: string;
  deleteNote: string;
}

/** Each noteable kind's thread routes (the Discussions API), by operation id. */
export const THREAD_OPERATIONS = {
  Issue: {
    listDiscussions: 'listIssueDiscussions',
    getDiscussion: 'getIssueDiscussion',
    createDiscussion: 'createIssueDiscussion',
    listDiscussionNotes: 'listIssueDiscussionNotes',
    addDiscussionNote: 'addIssueDiscussionNote',
    getDiscussionNote: 'getIssueDiscussionNote',
    updateDiscussionNote: 'updateIssueDiscussionNote',
    deleteDiscussionNote: 'deleteIssueDiscussionNote',
  },
  MergeRequest: {
    listDiscussions: 'listMergeRequestDiscussions',
    getDiscussion: 'getMergeRequestDiscussion',
    createDiscussion: 'createMergeRequestDiscussion',
    listDiscussionNotes: 'listMergeRequestDiscussionNotes',
    addDiscussionNote: 'addMergeRequestDiscussionNote',
    getDiscussionNote: 'getMergeRequestDiscussionNote',
    updateDiscussionNote: 'updateMergeRequestDiscussionNote',
    deleteDiscussionNote: 'deleteMergeRequestDiscussionNote',
  },
  Snippet: {
    listDiscussions: 'listSnippetDiscussions',
    getDiscussion: 'getSnippetDiscussion',
    createDiscussion: 'createSnippetDiscussion',
    listDiscussionNotes: 'listSnippetDiscussionNotes',
    addDiscussionNote: 'addSnippetDiscussionNote',
    getDiscussionNote: 'getSnippetDiscussionNote',
    updateDiscussionNote: 'updateSnippetDiscussionNote',
    deleteDiscussionNote: 'deleteSnippetDiscussionNote',
  },
  Epic: {
    listDiscussions: 'listEpicDiscussions',
    getDiscussion: 'getEpicDiscussion',
    createDiscussion: 'createEpicDiscussion',
    listDiscussionNotes: 'listEpicDiscussionNotes',
    addDiscussionNote: 'addEpicDiscussionNote',
    getDiscussionNote: 'getEpicDiscussionNote',
    updateDiscussionNote: 'updateEpicDiscussionNote',
    deleteDiscussionNote: 'deleteEpicDiscussionNote',
  },
  Commit: {
    listDiscussions: 'listCommitDiscussions',
    getDiscussion: 'getCommitDiscussion',
    createDiscussion: 'createCommitDiscussion',
    listDiscussionNotes: 'listCommitDiscussionNotes',
    addDiscussionNote: 'addCommitDiscussionNote',
    getDiscussionNote: 'getCommitDiscussionNote',
    updateDiscussionNote: 'updateCommitDiscussionNote',
    deleteDiscussionNote: 'deleteCommitDiscussionNote',
  },
} as const satisfies Record<NoteableTypeName, ThreadOperationIds>;

/** The Notes API of each noteable kind but commits, by operation id. */
export const NOTE_OPERATIONS = {
  Issue: {
    listNotes: 'listIssueNotes',
    createNote: 'createIssueNote',
    getNote: 'getIssueNote',
    updateNote: 'updateIssueNote',
    deleteNote: 'deleteIssueNote',
  },
  MergeRequest: {
    listNotes: 'listMergeRequestNotes',
    createNote: 'createMergeRequestNote',
    getNote: 'getMergeRequestNote',
    updateNote: 'updateMergeRequestNote',
    deleteNote: 'deleteMergeRequestNote',
  },
  Snippet: {
    listNotes: 'listSnippetNotes',
    createNote: 'createSnippetNote',
    getNote: 'getSnippetNote',
    updateNote: 'updateSnippetNote',
    deleteNote: 'deleteSnippetNote',
  },
  Epic: {
    listNotes: 'listEpicNotes',
    createNote: 'createEpicNote',
    getNote: 'getEpicNote',
    updateNote: 'updateEpicNote',
    deleteNote: 'deleteEpicNote',
  },
} as const satisfies Record<Exclude<NoteableTypeName, 'Commit'>, NoteOperationIds>;
