// What an error means to a person, chosen by its `type` (a service problem
// type, a sign-in error type, a mirror or gate error type), never by its
// message text: a title, one sentence, and the action that helps.

/** What the person can do about it; the screen showing the problem wires each one. */
export type ProblemAction =
  | 'sign-in-again'
  | 'use-another-token'
  | 'retry'
  | 'check-server-settings'
  | 'clear-filters'
  | 'back-to-list'
  | 'sync-now'
  | 'none';

export interface ProblemWords {
  title: string;
  detail: string;
  action: ProblemAction;
  /** The button's label for `action`. */
  actionLabel: string | null;
}

const ACTION_LABELS: Record<ProblemAction, string | null> = {
  'sign-in-again': 'Sign in again',
  'use-another-token': 'Use another token',
  retry: 'Try again',
  'check-server-settings': 'Check server settings',
  'clear-filters': 'Clear filters',
  'back-to-list': 'Back to the list',
  'sync-now': 'Sync now',
  none: null,
};

const WORDS: Record<string, Omit<ProblemWords, 'actionLabel'>> = {
  'token-invalid': {
    title: 'This token is not recognised',
    detail: 'The service does not know this token. Check that you copied all of it, or create a new one.',
    action: 'use-another-token',
  },
  'token-expired': {
    title: 'Your sign-in has expired',
    detail: 'Sign in again to keep syncing. Your unsent changes are kept.',
    action: 'sign-in-again',
  },
  'token-revoked': {
    title: 'This token was revoked',
    detail: 'Someone revoked it, or it was replaced. Sign in again; your unsent changes are kept.',
    action: 'sign-in-again',
  },
  'pasted-token-refused': {
    title: 'That does not look like an access token',
    detail: 'Access tokens start with svc_live_ or svc_test_. Copy the whole token from the service.',
    action: 'use-another-token',
  },
  'signed-out': {
    title: 'You are signed out',
    detail: 'Sign in to see and change your tasks. Changes you made before are kept.',
    action: 'sign-in-again',
  },
  'read-only': {
    title: 'This account can only read',
    detail:
      'It was signed in with a test token or one without write access. Sign in with a live token to make changes.',
    action: 'use-another-token',
  },
  'test-token-read-only': {
    title: 'This account can only read',
    detail: 'Test tokens never change anything. Sign in with a live token to make changes.',
    action: 'use-another-token',
  },
  'insufficient-scope': {
    // A browser sign-in may have been granted fewer scopes, or had one taken back: signing in again asks anew.
    title: 'Your sign-in does not allow this',
    detail:
      'It lacks the permission this needs: sign in again and allow it, or sign in with a token that has it.',
    action: 'sign-in-again',
  },
  'rate-limit': {
    title: 'The service asked the app to slow down',
    detail: 'Syncing resumes by itself in a moment. Your changes are saved on this computer.',
    action: 'none',
  },
  network: {
    title: 'Cannot reach the service',
    detail:
      'Check your connection and the server address. You can keep working; changes sync when it is back.',
    action: 'retry',
  },
  'auth-server-unavailable': {
    title: 'Cannot reach the sign-in server',
    detail: 'Check your connection and the sign-in address in the server settings.',
    action: 'check-server-settings',
  },
  'auth-url-refused': {
    title: 'The sign-in address is not allowed',
    detail: 'It must be an https address (http only for a server on this computer).',
    action: 'check-server-settings',
  },
  'oauth-error': {
    title: 'Sign-in did not complete',
    detail: 'The sign-in page declined or could not finish. You can try again.',
    action: 'retry',
  },
  'issuer-mismatch': {
    title: 'Sign-in came back from another server',
    detail:
      'The answer to this sign-in names a different sign-in server than the one in the settings, so it was refused. Check the server settings and try again.',
    action: 'check-server-settings',
  },
  'attempt-ended': {
    title: 'Sign-in stopped',
    detail: 'The browser did not come back in time, or sign-in was cancelled. You can try again.',
    action: 'retry',
  },
  'loopback-unavailable': {
    title: 'The app cannot receive the sign-in',
    detail: 'It could not listen on this computer for the browser to come back. Try again, or paste a token.',
    action: 'retry',
  },
  'browser-open-failed': {
    title: 'The browser did not open',
    detail: 'The app could not open the sign-in page. Try again, or paste a token instead.',
    action: 'retry',
  },
  'token-response-invalid': {
    title: 'The sign-in server answered something unexpected',
    detail: 'Check the server settings; the sign-in address may point to the wrong server.',
    action: 'check-server-settings',
  },
  'secret-store-failed': {
    title: 'Your sign-in could not be saved securely',
    detail: 'The system keychain refused. You stay signed in until you quit the app.',
    action: 'none',
  },
  validation: {
    title: 'That value was not accepted',
    detail: 'Check the field and try again.',
    action: 'none',
  },
  'invalid-parameter': {
    title: 'That filter is not supported',
    detail: 'One of the filter values is not one the service knows. Clear the filters and choose again.',
    action: 'clear-filters',
  },
  'invalid-input': {
    title: 'That value was not accepted',
    detail: 'It is too long or not in the expected form.',
    action: 'none',
  },
  'link-malformed': {
    title: 'This link cannot be opened',
    detail: 'It is not a complete svc-desktop task link. Copy the link again with “Copy link” in the task.',
    action: 'none',
  },
  'link-unsupported': {
    title: 'The app does not open this kind of link',
    detail: 'Only task links (svc-desktop://task/…) open in the app.',
    action: 'none',
  },
  'link-task-not-found': {
    title: 'This task is not in any of your accounts’ synced data',
    detail: 'Sign in to the account it belongs to, or sync now if it was created a moment ago.',
    action: 'sync-now',
  },
  'link-unavailable': {
    title: 'This task cannot be named by a link',
    detail: 'Its id holds characters a link cannot carry. Find it by its title instead.',
    action: 'none',
  },
  'not-found': {
    title: 'This task is no longer here',
    detail: 'It was deleted, or you no longer have access to it.',
    action: 'back-to-list',
  },
  'precondition-failed': {
    title: 'Someone else changed this task',
    detail: 'Your change waits while the app compares it with theirs.',
    action: 'sync-now',
  },
  'unsafe-id': {
    title: 'Its id cannot be sent',
    detail:
      'The server listed it under an id that would address something else in a request. Nothing was sent; discard the change.',
    action: 'none',
  },
  // The upload rules' refusals (protocol/upload-rules.ts), with their titles: the file named in the context.
  'upload-too-large': {
    title: 'File too large',
    detail: 'Attachments may be at most 25 MB.',
    action: 'none',
  },
  'upload-type-not-allowed': {
    title: 'File type not allowed',
    detail: 'Programs, scripts, web pages, SVG, XML and macro-enabled Office files are never accepted.',
    action: 'none',
  },
  'upload-type-mismatch': {
    title: 'File contents do not match its type',
    detail: 'Its bytes say it is another kind of file than its name or type does.',
    action: 'none',
  },
  internal: {
    title: 'Something went wrong in the app',
    detail: 'Try again. If it keeps happening, restart the app; your changes are saved.',
    action: 'retry',
  },
  unavailable: {
    title: 'Not available right now',
    detail: 'This part of the app is not ready yet. Try again in a moment.',
    action: 'retry',
  },
  'account-mismatch': {
    title: 'That sign-in is for someone else',
    detail:
      'This account belongs to another person or organization. Sign in as its owner, or add the other one as a new account.',
    action: 'use-another-token',
  },
  'account-not-found': {
    title: 'That account is no longer here',
    detail: 'It was removed from this computer. Sign in to add it again.',
    action: 'sign-in-again',
  },
  'server-settings-refused': {
    title: 'The server address is not allowed',
    detail:
      'It must be an https address (http only for this computer, as 127.0.0.1 or [::1]) without a password in it, and the API must be on the sign-in server unless this build names the pair.',
    action: 'check-server-settings',
  },
  'registry-unreadable': {
    title: 'The list of accounts cannot be read',
    detail:
      'The file that lists your accounts is damaged; it was left as it is. Sign in again to start a new list.',
    action: 'sign-in-again',
  },
  'invalid-response': {
    title: 'The server answered something unexpected',
    detail:
      'Check that the server address points to the service. Your changes are kept and will be sent later.',
    action: 'check-server-settings',
  },
  'mfa-required': {
    title: 'Two-step sign-in is required',
    detail: 'Your organization asks for a second step. Sign in through the browser, or use an access token.',
    action: 'sign-in-again',
  },
  'email-unverified': {
    title: 'Your e-mail address is not confirmed yet',
    detail: 'Confirm it from the message the service sent you, then sign in again.',
    action: 'sign-in-again',
  },
  'token-policy': {
    title: 'Your organization does not allow this token',
    detail:
      'Its token policy refuses it (kind or lifetime). Create a token the policy allows, or sign in through the browser.',
    action: 'use-another-token',
  },
  'idempotency-key-in-flight': {
    title: 'The same change is still being sent',
    detail: 'The app will try again in a moment.',
    action: 'none',
  },
  'demo-failed': {
    title: 'The demo could not start',
    detail: 'The local demo server did not start. Try again.',
    action: 'retry',
  },
  'storage-locked': {
    title: 'Another copy of the app is using your data',
    detail: 'Close other copies of the app and try again.',
    action: 'retry',
  },
  'storage-full': {
    title: 'The disk is full',
    detail: 'Free some space; changes cannot be saved until then.',
    action: 'retry',
  },
  'storage-read-only': {
    title: 'Your data cannot be written',
    detail: 'The app’s data folder is read-only. Check its permissions.',
    action: 'retry',
  },
  'storage-corrupt': {
    title: 'The local copy is damaged',
    detail: 'It will be rebuilt from the server. Unsent changes are kept separately.',
    action: 'sync-now',
  },
};

const STORAGE_FALLBACK: Omit<ProblemWords, 'actionLabel'> = {
  title: 'The local copy cannot be used',
  detail: 'The app could not read or write its data on this computer. Check the disk and try again.',
  action: 'retry',
};

export function describeProblem(type: string): ProblemWords {
  const words = WORDS[type] ?? (type.startsWith('storage-') ? STORAGE_FALLBACK : WORDS.internal);
  const chosen = words ?? STORAGE_FALLBACK;
  return { ...chosen, actionLabel: ACTION_LABELS[chosen.action] };
}
