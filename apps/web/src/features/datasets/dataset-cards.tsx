import type { Dataset } from "@seed/store";
import { Card } from "@seed/ui";
import { deleteDataset } from "@/app/admin/datasets/actions";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { ExpressionHelp } from "@/components/admin/expression-help";
import { CalculatedFieldsForm } from "./calculated-fields-form";
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
