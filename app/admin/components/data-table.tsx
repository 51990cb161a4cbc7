import { flexRender, type Column, type Table } from '@tanstack/react-table';

interface ColumnLook {
  /** Right-aligned (amounts, counts). */
  numeric?: boolean;
  /** Left out at tablet width, so the list fits without scrolling sideways (the detail page has it). */
  wideOnly?: boolean;
}

export function columnClass<Row>(column: Column<Row>): string | undefined {
  const look = (column.columnDef.meta ?? {}) as ColumnLook;
  const classes = [look.numeric ? 'numeric' : '', look.wideOnly ? 'wide-only' : ''].filter(Boolean);
  return classes.length > 0 ? classes.join(' ') : undefined;
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

/** The head of a console list: the column headers, each with its column's look. */
export function DataTableHead<Row>({ table }: { table: Table<Row> }) {
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => (
            <th key={header.id} scope="col" className={columnClass(header.column)}>
              {flexRender(header.column.columnDef.header, header.getContext())}
            </th>
          ))}
        </tr>
      ))}
    </thead>
  );
}
