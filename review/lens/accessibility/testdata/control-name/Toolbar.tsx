import { TrashIcon } from './icons';

export function Toolbar({ onDelete, label, children }: Props) {
  return (
    <nav>
      <button onClick={onDelete}><TrashIcon /></button> {/* want "<button> without an accessible name" */}
      <button onClick={onDelete} aria-label="Delete draft"><TrashIcon aria-hidden="true" /></button>
      <button onClick={onDelete}>{label}</button>
      <button onClick={onDelete}>{children}</button>
      <button onClick={onDelete}><FaTrash /></button> {/* want "announce only \"button\"" */}
      <button onClick={onDelete}><Trans id="delete" /></button>
      <button onClick={onDelete}><TrashIcon title="Delete" /></button>
      <button onClick={onDelete} {...rest}><TrashIcon /></button>
      <a href="/settings"><SettingsIcon /></a> {/* want "<a> without an accessible name" */}
      <a href="/settings"><SettingsIcon /> Settings</a>
      <button onClick={onDelete} />{/* want "<button> without an accessible name" */}
      <IconButton onClick={onDelete}><TrashIcon /></IconButton>
    </nav>
  );
}
