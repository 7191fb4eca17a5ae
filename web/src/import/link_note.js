// The check of a view that holds no imported tensors, in the first view's bundle (import_view.js, the
// check with imports, comes with the lazy panels): a state that says imported=… with nothing imported
// (a link, which carries no tensors) gets a note.

/** `check` as it is, or with the note when `state` names imports this view does not hold. */
export function withoutImports(check, state) {
  // Only a kind of import: any other value is the field's own error (a choice), not this note too.
  if (!check || (state.imported !== 'tensors' && state.imported !== 'attention')) return check;
  const text = `This view was made with imported ${state.imported === 'attention' ? 'attention maps' : 'tensors'}, which a link does not carry: ` +
    'import them again (Export and import panel, or importTensors()); until then the seeded ones are shown.';
  return { ...check, notes: [...(check.notes ?? []), { field: 'imported', text }] };
}
