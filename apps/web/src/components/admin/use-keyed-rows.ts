"use client";

import { useRef, useState } from "react";

/**
 * The rows of a list form (a dataset's calculated fields, its hierarchies): each with a key that
 * stays its own while rows are added, changed and removed, so React keeps each row's inputs.
 */
export function useKeyedRows<T extends object>(initial: readonly T[]) {
  const nextKey = useRef(initial.length);
  const [rows, setRows] = useState<Array<T & { key: number }>>(() =>
    initial.map((row, key) => ({ ...row, key })),
  );
  return {
    rows,
    add: (row: T) => {
      const key = nextKey.current++;
      setRows((current) => [...current, { ...row, key }]);
    },
    change: (key: number, patch: Partial<T>) =>
      setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row))),
    remove: (key: number) => setRows((current) => current.filter((row) => row.key !== key)),
  };
}
