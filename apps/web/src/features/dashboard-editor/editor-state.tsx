"use client";

import type { TileKind, TileLayout } from "@seed/model";
import { useRouter } from "next/navigation";
import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import type { ContentFormState } from "@/components/admin/content-form-state";
import { useKeptForm } from "@/components/admin/use-content-form";

/** A tile as the composer shows it: its place and a name for people. */
export interface ComposerTile {
  id: string;
  kind: TileKind;
  name: string;
  layout: TileLayout;
}

/**
 * What adding or removing a tile hands back: the dashboard's version after the change and the
 * tile added (with its drawing) or the id of the one removed.
 */
export type TileChange =
  | { version: number; added: ComposerTile; preview: ReactNode }
  | { version: number; removed: string };

/** A tile action's answer: its messages, and on success the change it made. */
export type TileChangeState = ContentFormState & { change?: TileChange };

interface EditorState {
  version: number;
  tiles: ComposerTile[];
  previews: Record<string, ReactNode>;
  /** The server's props this state last took in. */
  seen: ComposerTile[];
}

interface Editor {
  dashboardId: string;
  version: number;
  /** The tiles as saved, in order. */
  tiles: ComposerTile[];
  previews: Record<string, ReactNode>;
  applyTileChange(change: TileChange): void;
  /** Brings the rest of the page up to date in the background (after a change made in place). */
  refreshPage(): void;
}

const EditorContext = createContext<Editor | null>(null);

/**
 * The dashboard editor's record: the version every form of the page writes against and the
 * saved tiles. Adding or removing a tile changes them in place from the action's answer (no
 * page round trip), then the rest of the page (its version line, the embed list, the filters'
 * columns) is brought up to date in the background. A page the server renders at a newer version
 * (another form's save) replaces what is here.
 */
export function DashboardEditor({
  dashboardId,
  version,
  tiles,
  previews,
  children,
}: {
  dashboardId: string;
  version: number;
  tiles: ComposerTile[];
  previews: Record<string, ReactNode>;
  children: ReactNode;
}) {
  const router = useRouter();
  const [state, setState] = useState<EditorState>({ version, tiles, previews, seen: tiles });
  // The server's answer for this version or a newer one: it is the record (an older one, still
  // on its way while a change landed here, is not).
  if (state.seen !== tiles && version >= state.version) {
    setState({ version, tiles, previews, seen: tiles });
  }
  const applyTileChange = (change: TileChange) => {
    setState((current) => {
      if (change.version <= current.version) return current;
      if ("added" in change) {
        return {
          ...current,
          version: change.version,
          tiles: [...current.tiles, change.added],
          previews: { ...current.previews, [change.added.id]: change.preview },
        };
      }
      return {
        ...current,
        version: change.version,
        tiles: current.tiles.filter((tile) => tile.id !== change.removed),
      };
    });
  };
  return (
    <EditorContext
      value={{
        dashboardId,
        version: state.version,
        tiles: state.tiles,
        previews: state.previews,
        applyTileChange,
        refreshPage: () => startTransition(() => router.refresh()),
      }}
    >
      {children}
    </EditorContext>
  );
}

/** The dashboard editor around this component, or null outside one (the new-dashboard page). */
export function useDashboardEditor(): Editor | null {
  return useContext(EditorContext);
}

/** The dashboard editor around this component (a part that only works inside one). */
export function useEditor(): Editor {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error("This part of the dashboard editor is drawn outside one.");
  return editor;
}

/** The dashboard's version as the editor knows it, for the page's version line. */
export function EditorVersion() {
  return <>{useDashboardEditor()?.version}</>;
}

/**
 * A form that adds or removes a tile: on success the editor takes the change in place and
 * `changes` counts up (key the form's fields by it to empty them for the next tile).
 */
export function useTileChangeForm(
  action: (previous: TileChangeState, formData: FormData) => Promise<TileChangeState>,
  onChanged?: (change: TileChange) => void,
) {
  const editor = useDashboardEditor();
  const [changes, setChanges] = useState(0);
  const form = useKeptForm<TileChangeState>(async (_previous, formData) => {
    // The previous answer holds a drawing; the action does not read it, so none is sent back.
    const next = await action({}, formData);
    if (next.change) {
      onChanged?.(next.change);
      editor?.applyTileChange(next.change);
      setChanges((count) => count + 1);
    }
    return next;
  }, {});
  // Only once the answer is shown: a refresh started while the action is pending would join its
  // transition, holding back the answer (and the button) until the whole page had been drawn.
  const { state } = form;
  const refreshedFor = useRef<TileChangeState | null>(null);
  useEffect(() => {
    if (!state.change || refreshedFor.current === state) return;
    refreshedFor.current = state;
    editor?.refreshPage();
  }, [state, editor]);
  return { ...form, changes };
}
