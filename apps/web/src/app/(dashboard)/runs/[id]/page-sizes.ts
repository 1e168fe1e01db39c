/** How many tool calls a step's list shows at a time (the page fetches the first on the server). */
export const TOOL_CALL_PAGE = 100;
