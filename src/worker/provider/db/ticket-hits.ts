/**
 * The ids of the tickets a full-text MATCH expression finds (`match` is its placeholder, `?1`):
 * those with every word in their own title and description, and those with every word in one of
 * their comments. Each comment is a row of its own in ticket_comments_fts
 * (migrations/0015_comment_search.sql), so a ticket's comments never make one value that grows
 * with them; the comment's ticket comes from ticket_comments by its id.
 */
export const ticketHitsSql = (match: string) =>
  `SELECT rowid FROM tickets_fts WHERE tickets_fts MATCH ${match}
   UNION SELECT ticket_id FROM ticket_comments WHERE id IN (SELECT rowid FROM ticket_comments_fts WHERE ticket_comments_fts MATCH ${match})`;
