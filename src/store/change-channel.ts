/**
 * The PostgreSQL notification channel on which migration 017's triggers announce changed users and the change
 * feed listens: one name both import, so neither imports the other.
 */
export const changeChannel = "pagegrade_changes";
