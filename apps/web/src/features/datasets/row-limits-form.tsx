"use client";

import {
  type DatasetColumnType,
  type FilterOperator,
  filterOperatorsByType,
  rowLimitLimits,
} from "@seed/model";
import { useActionState, useEffect, useRef, useState } from "react";
import {
  clearRowLimit,
  type RowLimitFormState,
  setRowLimit,
} from "@/app/admin/datasets/row-limit-actions";
import { ConfirmDialogButton } from "@/components/admin/confirm-dialog";
import {
  describedBy,
  FieldMessages,
  FormMessages,
  SelectField,
} from "@/components/admin/form-controls";
import { useKeptForm } from "@/components/admin/use-content-form";
import { operatorLabels } from "@/features/chart-editor/query-filters";

export interface RowLimitRow {
  groupId: string;
  groupName: string;
  phrase: string;
}

interface Column {
  name: string;
  type: DatasetColumnType;
}

/** How a condition compares: a filter operator, or the account's attribute (text columns). */
type LimitOperator = Exclude<FilterOperator, "relative"> | "is_attribute";

const limitLabels: Record<LimitOperator, string> = {
  ...(operatorLabels as Record<Exclude<FilterOperator, "relative">, string>),
  is_attribute: "is the account's attribute (from single sign-on)",
};

function operatorsOf(type: DatasetColumnType | undefined): LimitOperator[] {
  const fixed = (type ? filterOperatorsByType[type] : []).filter(
    (op): op is Exclude<FilterOperator, "relative"> => op !== "relative",
  );
  return type === "string" ? [...fixed, "is_attribute"] : fixed;
}

/** One condition: a column, how it compares, and the value(s); no column leaves it out. */
function ConditionFields({
  index,
  columns,
  state,
}: {
  index: number;
  columns: readonly Column[];
  state: RowLimitFormState;
}) {
  const [column, setColumn] = useState(index === 0 ? (columns[0]?.name ?? "") : "");
  const operators = operatorsOf(columns.find((one) => one.name === column)?.type);
  const [op, setOp] = useState<LimitOperator>("eq");
  const [value, setValue] = useState("");
  const [to, setTo] = useState("");
  const chosenOp = operators.includes(op) ? op : (operators[0] ?? "eq");
  const errors = (name: string) => state.fieldErrors?.[`${name}${index}`];
  const id = (name: string) => `row-limit-${name}-${index}`;
  const valued = chosenOp !== "empty" && chosenOp !== "not_empty";
  return (
    <fieldset className="field">
      <legend>Condition {index + 1}</legend>
      <SelectField
        id={id("column")}
        name={`column${index}`}
        label="Column"
        value={column}
        onChange={(event) => setColumn(event.target.value)}
        errors={errors("column")}
      >
        <option value="">{index === 0 ? "Choose a column" : "No condition"}</option>
        {columns.map((one) => (
          <option key={one.name} value={one.name}>
            {one.name}
          </option>
        ))}
      </SelectField>
      {column === "" ? null : (
        <>
          <SelectField
            id={id("op")}
            name={`op${index}`}
            label="Rows where it"
            value={chosenOp}
            onChange={(event) => setOp(event.target.value as LimitOperator)}
            errors={errors("op")}
          >
            {operators.map((one) => (
              <option key={one} value={one}>
                {limitLabels[one]}
              </option>
            ))}
          </SelectField>
          {valued ? (
            <div className="field">
              <label htmlFor={id("value")}>
                {chosenOp === "between"
                  ? "From"
                  : chosenOp === "is_attribute"
                    ? "Attribute name (e.g. region)"
                    : "Value"}
              </label>
              <input
                id={id("value")}
                name={`value${index}`}
                value={value}
                onChange={(event) => setValue(event.target.value)}
                {...describedBy(id("value"), errors("value"))}
              />
              <FieldMessages id={id("value")} errors={errors("value")} />
            </div>
          ) : null}
          {chosenOp === "between" ? (
            <div className="field">
              <label htmlFor={id("to")}>To</label>
              <input
                id={id("to")}
                name={`to${index}`}
                value={to}
                onChange={(event) => setTo(event.target.value)}
              />
            </div>
          ) : null}
        </>
      )}
    </fieldset>
  );
}

/** Sets (or replaces) a group's limit on the dataset. */
export function RowLimitForm({
  datasetId,
  groups,
  columns,
}: {
  datasetId: string;
  groups: ReadonlyArray<{ id: string; name: string }>;
  columns: readonly Column[];
}) {
  // Sent without the form's own reset, so a refused save keeps every choice and value as sent.
  const { state, pending, onSubmit } = useKeptForm<RowLimitFormState>(setRowLimit, {});
  const [groupId, setGroupId] = useState(groups[0]?.id ?? "");
  // One condition at first; more on request, up to as many as a limit may have.
  const [shown, setShown] = useState(1);
  const added = useRef(false);
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    document.getElementById(`row-limit-column-${shown - 1}`)?.focus();
  }, [shown]);
  const full = shown >= rowLimitLimits.maxConditions;
  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="datasetId" value={datasetId} />
      <SelectField
        id="row-limit-group"
        name="groupId"
        label="Group"
        value={groupId}
        onChange={(event) => setGroupId(event.target.value)}
        errors={state.fieldErrors?.groupId}
      >
        {groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.name}
          </option>
        ))}
      </SelectField>
      {Array.from({ length: shown }, (_, index) => (
        <ConditionFields key={index} index={index} columns={columns} state={state} />
      ))}
      <div>
        <button
          type="button"
          className="button button-secondary"
          disabled={full}
          aria-describedby="row-limit-conditions-note"
          onClick={() => {
            added.current = true;
            setShown((count) => Math.min(count + 1, rowLimitLimits.maxConditions));
          }}
        >
          Add a condition
        </button>
        <p id="row-limit-conditions-note" className="muted">
          A row must meet every condition; a limit has at most {rowLimitLimits.maxConditions}.
        </p>
      </div>
      <div>
        <button type="submit" className="button button-secondary" disabled={pending}>
          Save limit
        </button>
      </div>
      <FormMessages state={state} />
    </form>
  );
}

/** Lifts one group's limit. */
export function ClearRowLimitForm({ datasetId, limit }: { datasetId: string; limit: RowLimitRow }) {
  const [state, action, pending] = useActionState<RowLimitFormState, FormData>(clearRowLimit, {});
  return (
    <form action={action}>
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="groupId" value={limit.groupId} />
      <ConfirmDialogButton
        label={`Remove the limit of ${limit.groupName}`}
        question={`Remove the row limit of ${limit.groupName}? Its members then see every row their collection grants.`}
        yes="Yes, remove the limit"
        disabled={pending}
      />
      <FormMessages state={state} />
    </form>
  );
}
