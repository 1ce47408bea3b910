import { describeHierarchy, isCategoryType, queryColumnsOf } from "@seed/model";
import type { Dataset } from "@seed/store";
import { Card } from "@seed/ui";
import { deleteDataset } from "@/app/admin/datasets/actions";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { ExpressionHelp } from "@/components/admin/expression-help";
import { CalculatedFieldsForm } from "./calculated-fields-form";
import { HierarchiesForm } from "./hierarchies-form";
import { RenameDatasetForm } from "./rename-form";

// The cards a writer sees on every dataset's page, stored or live.

type DatasetRecord = Pick<Dataset, "id" | "version" | "name" | "description">;

export function RenameDatasetCard({ dataset }: { dataset: DatasetRecord }) {
  return (
    <Card title="Name and description" titleAs="h2">
      <RenameDatasetForm
        key={dataset.version}
        datasetId={dataset.id}
        version={dataset.version}
        name={dataset.name}
        description={dataset.description}
      />
    </Card>
  );
}

export function DeleteDatasetCard({ dataset }: { dataset: DatasetRecord }) {
  return (
    <Card title="Delete" titleAs="h2">
      <ConfirmDelete
        action={deleteDataset}
        fields={{ datasetId: dataset.id, version: String(dataset.version) }}
        what={`dataset "${dataset.name}"`}
      />
    </Card>
  );
}

/**
 * A dataset's calculated fields: writers edit the list, readers see each field, its expression
 * and its type (or why it no longer fits the columns).
 */
export function CalculatedFieldsCard({
  dataset,
  canWrite,
}: {
  dataset: Pick<Dataset, "id" | "version" | "columns" | "calculatedFields">;
  canWrite: boolean;
}) {
  return (
    <Card
      title="Calculated fields"
      titleAs="h2"
      description="A field is an expression over this dataset's columns, such as [revenue] / [orders]. Charts, stat tiles and filters use it like a column."
    >
      {canWrite ? (
        <CalculatedFieldsForm
          key={dataset.version}
          datasetId={dataset.id}
          version={dataset.version}
          columns={dataset.columns}
          fields={dataset.calculatedFields}
        />
      ) : dataset.calculatedFields.length === 0 ? (
        <p className="muted">No calculated fields.</p>
      ) : (
        <>
          <ul>
            {dataset.calculatedFields.map((field) => (
              <li key={field.name}>
                <strong>{field.name}</strong> = <code>{field.expression}</code>{" "}
                {field.type ? (
                  `(${field.type})`
                ) : (
                  <span className="field-error">{field.problem}</span>
                )}
              </li>
            ))}
          </ul>
          <ExpressionHelp columns={dataset.columns} mode="row" />
        </>
      )}
    </Card>
  );
}

/**
 * A dataset's drill-down hierarchies: writers edit the list, readers see each one. A chart of a
 * level above the last drills from a value into the next level within it.
 */
export function HierarchiesCard({
  dataset,
  canWrite,
}: {
  dataset: Pick<Dataset, "id" | "version" | "columns" | "calculatedFields" | "hierarchies">;
  canWrite: boolean;
}) {
  const columns = queryColumnsOf(dataset)
    .filter((column) => isCategoryType(column.type))
    .map((column) => column.name);
  return (
    <Card
      title="Drill-down hierarchies"
      titleAs="h2"
      description="A hierarchy names text columns from the broadest down, such as region, country, city. On a dashboard, a chart of one level drills from a value into the next level within it."
    >
      {canWrite && columns.length >= 2 ? (
        <HierarchiesForm
          key={dataset.version}
          datasetId={dataset.id}
          version={dataset.version}
          columns={columns}
          hierarchies={dataset.hierarchies}
        />
      ) : dataset.hierarchies.length > 0 ? (
        <ul>
          {dataset.hierarchies.map((levels) => (
            <li key={levels.join("\u0000")}>{describeHierarchy(levels)}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">
          {columns.length < 2
            ? "No hierarchies: a hierarchy needs two text or true/false columns."
            : "No hierarchies."}
        </p>
      )}
    </Card>
  );
}
