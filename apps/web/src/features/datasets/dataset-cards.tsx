import type { Dataset } from "@seed/store";
import { Card } from "@seed/ui";
import { deleteDataset } from "@/app/admin/datasets/actions";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
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
