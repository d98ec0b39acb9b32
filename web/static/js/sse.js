// The text/event-stream grammar, as the page reads it: the server's streams
// (api.js) and the trace worker's compact trace (traceworker.js).

// splitEvents calls onEvent(name, data) for each whole event of text, in
// order, skipping events without data (the default event's name is
// 'message'), and returns the rest of text: the start of an event still to
// come.
export function splitEvents(text, onEvent) {
  let start = 0;
  let end;
  while ((end = text.indexOf('\n\n', start)) >= 0) {
    let name = 'message';
    let data = '';
    for (const line of text.slice(start, end).split('\n')) {
      if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    start = end + 2;
    if (data) onEvent(name, data);
  }
  return text.slice(start);
}
