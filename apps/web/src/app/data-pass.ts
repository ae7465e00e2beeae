import { createContext, useContext } from "react";

/**
 * True while the server renders a page only to learn which queries it starts (entry-server.tsx): the frame around
 * the page (menus, bars) starts none and is left out of those passes, then rendered once with the data.
 */
export const DataPassContext = createContext(false);

/** Whether this render is a data pass (see DataPassContext). */
export const useDataPass = (): boolean => useContext(DataPassContext);
