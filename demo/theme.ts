import { css } from 'lit';

/** Shared control styles: readable sizes, visible focus, WCAG AA contrast on white. */
export const controls = css`
  :host {
    --accent: #1e3a8a;
    --text: #111827;
    --muted: #4b5563;
    --line: #9ca3af;
    --panel: #ffffff;
    color: var(--text);
  }
  label {
    font-weight: 600;
    font-size: 0.9rem;
  }
  input,
  select,
  textarea,
  button {
    font: inherit;
    color: inherit;
  }
  input,
  select,
  textarea {
    border: 1px solid var(--line);
    border-radius: 6px;
    padding: 0.35rem 0.5rem;
    background: #fff;
    box-sizing: border-box;
  }
  button {
    border: 1px solid var(--accent);
    border-radius: 6px;
    padding: 0.4rem 0.9rem;
    background: #fff;
    color: var(--accent);
    cursor: pointer;
    font-weight: 600;
  }
  button.primary {
    background: var(--accent);
    color: #fff;
  }
  button:disabled {
    border-color: #d1d5db;
    background: #f3f4f6;
    color: #6b7280;
    cursor: not-allowed;
  }
  :is(input, select, textarea, button, [tabindex]):focus-visible {
    outline: 3px solid #f59e0b;
    outline-offset: 2px;
  }
  h2 {
    font-size: 1.05rem;
    margin: 0 0 0.5rem;
  }
  .muted {
    color: var(--muted);
  }
  .panel {
    background: var(--panel);
    border: 1px solid #d1d5db;
    border-radius: 8px;
    padding: 1rem;
  }
`;
