/*
 * Routes of this module (none yet).
 */
export {}
