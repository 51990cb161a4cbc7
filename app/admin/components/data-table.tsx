import { flexRender, type Column, type Table } from '@tanstack/react-table';

/** Columns whose `meta.numeric` is set are right-aligned (amounts, counts). */
export function columnClass<Row>(column: Column<Row>): string | undefined {
  return (column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric ? 'numeric' : undefined;
}

/** The body of a console list: one row per record, cells rendered by their column definitions. */
export function DataTableRows<Row>({ table }: { table: Table<Row> }) {
  return (
    <tbody>
      {table.getRowModel().rows.map((row) => (
        <tr key={row.id}>
          {row.getVisibleCells().map((cell) => (
            <td key={cell.id} className={columnClass(cell.column)}>
              {flexRender(cell.column.columnDef.cell, cell.getContext())}
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}
