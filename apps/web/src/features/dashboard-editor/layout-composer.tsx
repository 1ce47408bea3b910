"use client";

import { compactLayout, gridLimits, placeTile, type TileLayout, tileSizeLimits } from "@seed/model";
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from "react";
import { removeTile, saveLayout } from "@/app/admin/dashboards/actions";
import { FormMessages } from "@/components/admin/form-controls";
import { useContentForm } from "@/components/admin/use-content-form";
import { gridPlacement } from "@/components/dashboard-tile";
import { type ComposerTile, useEditor, useTileChangeForm } from "./editor-state";
import { followSaved, sameLayout } from "./follow-saved";
import { RecordFields } from "./record-fields";

interface Drag {
  id: string;
  mode: "move" | "resize";
  startX: number;
  startY: number;
  colPitch: number;
  rowPitch: number;
  origin: TileLayout;
  target: TileLayout;
}

const arrows: Record<string, [number, number, string]> = {
  ArrowLeft: [-1, 0, "left"],
  ArrowRight: [1, 0, "right"],
  ArrowUp: [0, -1, "up"],
  ArrowDown: [0, 1, "down"],
};

const leaveWarning = "Leave this page? Your layout changes are not saved.";

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function describePlace(layout: TileLayout): string {
  return `column ${layout.x + 1}, row ${layout.y + 1}, ${layout.w} columns wide, ${layout.h} rows tall`;
}

/** A tile moved or resized within the grid's bounds, or null where it cannot go that way. */
function stepped(tile: ComposerTile, dx: number, dy: number, resize: boolean): TileLayout | null {
  const { x, y, w, h } = tile.layout;
  if (resize) {
    const { minW, minH } = tileSizeLimits[tile.kind];
    const next = { x, y, w: w + dx, h: h + dy };
    const fits =
      next.w >= minW &&
      next.x + next.w <= gridLimits.columns &&
      next.h >= minH &&
      next.h <= gridLimits.maxH &&
      next.y + next.h <= gridLimits.maxRows;
    return fits ? next : null;
  }
  const next = { x: x + dx, y: y + dy, w, h };
  const fits =
    next.x >= 0 &&
    next.x + w <= gridLimits.columns &&
    next.y >= 0 &&
    next.y + h <= gridLimits.maxRows;
  return fits ? next : null;
}

/**
 * Arranges a dashboard's tiles on the 12-column grid by drag and drop or by keyboard (arrows
 * move the focused tile, Shift+arrows resize it), showing the real tiles as they will be
 * published. Changes stay here, undoable, until "Save layout" sends them as one change.
 */
export function LayoutComposer() {
  const { tiles, previews } = useEditor();
  const [current, setCurrent] = useState(tiles);
  const [basis, setBasis] = useState(tiles);
  const [history, setHistory] = useState<ComposerTile[][]>([]);
  const [announcement, setAnnouncement] = useState("");
  const [drag, setDrag] = useState<Drag | null>(null);
  const [focusNext, setFocusNext] = useState<string | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const toolbarRef = useRef<HTMLFormElement>(null);
  const { state, pending, onSubmit } = useContentForm(saveLayout);
  const helpId = useId();
  // The saved tiles changed (a tile added or removed, a save): unsaved moves stay, undo starts over.
  if (tiles !== basis) {
    setBasis(tiles);
    setCurrent(followSaved(current, basis, tiles));
    setHistory([]);
  }
  const savedById = new Map(tiles.map((tile) => [tile.id, tile.layout]));
  const dirty = current.some((tile) => {
    const saved = savedById.get(tile.id);
    return !saved || !sameLayout(saved, tile.layout);
  });

  // Unsaved changes: ask before the page unloads or a link leaves it. Other forms of the page
  // keep them (they change the page in place or draw it again around the composer).
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!link || event.defaultPrevented) return;
      if (!window.confirm(leaveWarning)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  // An announcement gives way to the next form's outcome, as the forms' messages do.
  useEffect(() => {
    const clear = () => setAnnouncement("");
    document.addEventListener("submit", clear);
    return () => document.removeEventListener("submit", clear);
  }, []);

  // After a removal, focus goes to the tile that took its place in reading order (or the toolbar).
  useEffect(() => {
    if (focusNext === null) return;
    setFocusNext(null);
    const handle = gridRef.current?.querySelector<HTMLButtonElement>(
      `[data-tile-id="${CSS.escape(focusNext)}"] .composer-handle`,
    );
    (
      handle ?? toolbarRef.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")
    )?.focus();
  }, [focusNext]);

  const removed = (tile: ComposerTile) => {
    const index = current.findIndex((other) => other.id === tile.id);
    const next = current[index + 1] ?? current[index - 1];
    setFocusNext(next?.id ?? "");
    setAnnouncement("Tile removed.");
  };

  const apply = (tile: ComposerTile, target: TileLayout, message: string) => {
    const next = placeTile(current, tile.id, target);
    if (!next) {
      setAnnouncement(`${tile.name} cannot go there: the tiles below would leave the grid.`);
      return;
    }
    const pushed = next.some(
      (other) =>
        other.id !== tile.id &&
        !sameLayout(other.layout, current.find((t) => t.id === other.id)?.layout ?? other.layout),
    );
    setHistory([...history, current]);
    setCurrent(next);
    setAnnouncement(pushed ? `${message} Tiles in the way moved down.` : message);
  };

  // Every tile up as far as it goes: the gaps moves and removals left, closed in one step.
  const closeGaps = () => {
    const next = compactLayout(current);
    const moved = next.filter((tile, index) => tile !== current[index]).length;
    if (moved === 0) {
      setAnnouncement("There are no gaps to close.");
      return;
    }
    setHistory([...history, current]);
    setCurrent(next);
    setAnnouncement(
      `Closed the gaps: ${moved} ${moved === 1 ? "tile" : "tiles"} moved up. Save to keep the layout.`,
    );
  };

  const undo = () => {
    const previous = history.at(-1);
    if (!previous) return;
    setHistory(history.slice(0, -1));
    setCurrent(previous);
    setAnnouncement("Undid the last layout change.");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, tile: ComposerTile) => {
    const arrow = arrows[event.key];
    if (!arrow) return;
    event.preventDefault();
    const [dx, dy, direction] = arrow;
    const target = stepped(tile, dx, dy, event.shiftKey);
    if (!target) {
      setAnnouncement(
        event.shiftKey
          ? `${tile.name} cannot be ${dx + dy < 0 ? "smaller" : "larger"} that way.`
          : `${tile.name} cannot move further ${direction}.`,
      );
      return;
    }
    apply(
      tile,
      target,
      event.shiftKey
        ? `${tile.name} resized to ${target.w} columns wide, ${target.h} rows tall.`
        : `${tile.name} moved to column ${target.x + 1}, row ${target.y + 1}.`,
    );
  };

  const startDrag = (event: PointerEvent<HTMLElement>, tile: ComposerTile, mode: Drag["mode"]) => {
    const grid = gridRef.current;
    if (event.button !== 0 || !grid) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const style = getComputedStyle(grid);
    const gap = Number.parseFloat(style.columnGap) || 0;
    const inner =
      grid.clientWidth -
      Number.parseFloat(style.paddingLeft) -
      Number.parseFloat(style.paddingRight);
    const rowHeight = Number.parseFloat(style.getPropertyValue("--dashboard-row")) * 16 || 80;
    setDrag({
      id: tile.id,
      mode,
      startX: event.clientX,
      startY: event.clientY,
      colPitch: (inner + gap) / gridLimits.columns,
      rowPitch: rowHeight + gap,
      origin: tile.layout,
      target: tile.layout,
    });
  };

  const moveDrag = (event: PointerEvent<HTMLElement>, tile: ComposerTile) => {
    if (!drag || drag.id !== tile.id) return;
    const dx = Math.round((event.clientX - drag.startX) / drag.colPitch);
    const dy = Math.round((event.clientY - drag.startY) / drag.rowPitch);
    const { origin } = drag;
    const { minW, minH } = tileSizeLimits[tile.kind];
    const target =
      drag.mode === "move"
        ? {
            ...origin,
            x: clamp(origin.x + dx, 0, gridLimits.columns - origin.w),
            y: clamp(origin.y + dy, 0, gridLimits.maxRows - origin.h),
          }
        : {
            ...origin,
            w: clamp(origin.w + dx, minW, gridLimits.columns - origin.x),
            h: clamp(origin.h + dy, minH, Math.min(gridLimits.maxH, gridLimits.maxRows - origin.y)),
          };
    if (!sameLayout(target, drag.target)) setDrag({ ...drag, target });
  };

  const endDrag = (tile: ComposerTile) => {
    if (!drag || drag.id !== tile.id) return;
    setDrag(null);
    const { target, origin, mode } = drag;
    if (sameLayout(target, origin)) return;
    apply(
      tile,
      target,
      mode === "move"
        ? `${tile.name} moved to column ${target.x + 1}, row ${target.y + 1}.`
        : `${tile.name} resized to ${target.w} columns wide, ${target.h} rows tall.`,
    );
  };

  // While dragging, the grid shows where everything would go if the tile were dropped now.
  const shown = (drag ? placeTile(current, drag.id, drag.target) : null) ?? current;

  return (
    <div className="stack">
      <p id={helpId} className="muted">
        Drag a tile by its name to move it, or by its bottom-right corner to resize it. By keyboard:
        focus a tile's name, then use the arrow keys to move it and Shift with the arrow keys to
        resize it. Tiles in the way move down; "Close gaps" moves every tile up as far as it goes.
        Nothing is published until you save.
      </p>
      <form
        ref={toolbarRef}
        onSubmit={onSubmit}
        aria-label="Save layout"
        className="composer-toolbar"
        noValidate
      >
        <RecordFields />
        <input
          type="hidden"
          name="layout"
          value={JSON.stringify(current.map((tile) => ({ tileId: tile.id, ...tile.layout })))}
        />
        <button type="submit" className="button" disabled={!dirty || pending}>
          {pending ? "Saving…" : "Save layout"}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={undo}
          disabled={history.length === 0 || pending}
        >
          Undo
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={closeGaps}
          disabled={pending}
        >
          Close gaps
        </button>
        <span className="muted" data-testid="layout-state">
          {dirty ? "Unsaved layout changes." : "No unsaved changes."}
        </span>
        <FormMessages state={state} withFieldErrors />
      </form>
      <p role="status" aria-live="polite" className="muted" data-testid="layout-announcement">
        {announcement}
      </p>
      {shown.length === 0 ? <p>No tiles yet.</p> : null}
      <div className="composer-scroll">
        <div ref={gridRef} className="dashboard-grid composer-grid">
          {shown.map((tile) => {
            const placeId = `${helpId}-${tile.id}`;
            const active = drag?.id === tile.id;
            return (
              <div
                key={tile.id}
                className="dashboard-tile composer-tile"
                data-tile-id={tile.id}
                data-active={active}
                style={gridPlacement(tile.layout)}
              >
                <div className="composer-tile__bar">
                  <button
                    type="button"
                    className="button button-secondary composer-handle"
                    aria-label={`Move or resize ${tile.name}`}
                    aria-describedby={`${placeId} ${helpId}`}
                    onKeyDown={(event) => onKeyDown(event, tile)}
                    onPointerDown={(event) => startDrag(event, tile, "move")}
                    onPointerMove={(event) => moveDrag(event, tile)}
                    onPointerUp={() => endDrag(tile)}
                    onPointerCancel={() => setDrag(null)}
                  >
                    <span aria-hidden="true">⠿ </span>
                    {tile.name}
                  </button>
                  <span id={placeId} className="visually-hidden">
                    {describePlace(tile.layout)}
                  </span>
                  <RemoveTileButton tile={tile} onRemoved={() => removed(tile)} />
                </div>
                <div className="composer-preview" inert>
                  {previews[tile.id] ?? <p>{tile.name}</p>}
                </div>
                <span
                  className="composer-resize"
                  aria-hidden="true"
                  data-testid={`resize-${tile.id}`}
                  onPointerDown={(event) => startDrag(event, tile, "resize")}
                  onPointerMove={(event) => moveDrag(event, tile)}
                  onPointerUp={() => endDrag(tile)}
                  onPointerCancel={() => setDrag(null)}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** Removes one tile in place (unsaved moves of the others stay); a refusal shows on the tile. */
function RemoveTileButton({ tile, onRemoved }: { tile: ComposerTile; onRemoved: () => void }) {
  const { state, pending, onSubmit } = useTileChangeForm(removeTile, onRemoved);
  return (
    <form onSubmit={onSubmit}>
      <RecordFields />
      <input type="hidden" name="tileId" value={tile.id} />
      <button
        type="submit"
        className="button button-secondary"
        disabled={pending}
        aria-label={`Remove ${tile.name}`}
      >
        Remove
      </button>
      <FormMessages state={state} />
    </form>
  );
}
