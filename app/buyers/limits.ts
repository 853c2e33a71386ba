/** Inquiry forms: at most `requests` posts per IP and window, shared by the listing and model forms. */
export const FORM_LIMIT = { requests: 10, window: '10 minutes' } as const
