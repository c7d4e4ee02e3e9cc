import { runScript } from "./script.js"

// Changing a reservation keeps the amount a night was booked at when the night stays the same, so a room line
// records the night it charges (holds write it; older room lines get it from their description, which the
// engine writes as `Room YYYY-MM-DD`). A reversal line names the line it cancels out in `applies_to_line_id`,
// so the stay's current priced lines are the ones no reversal names (the index finds them per folio).
export default runScript(`
ALTER TABLE folio_lines ADD COLUMN night date;
UPDATE folio_lines SET night = substring(description FROM 6)::date
WHERE kind = 'room' AND description ~ '^Room [0-9]{4}-[0-9]{2}-[0-9]{2}$';
CREATE INDEX folio_lines_applies_to ON folio_lines (applies_to_line_id) WHERE applies_to_line_id IS NOT NULL;
`)
