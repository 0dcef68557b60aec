import { useState, type KeyboardEvent } from 'react';
import SearchOutline from 'antd-mobile-icons/es/SearchOutline';
import CloseCircleFill from 'antd-mobile-icons/es/CloseCircleFill';
// antd-mobile's own stylesheets, so this looks exactly like its SearchBar (CSS is not first-screen JavaScript).
import 'antd-mobile/es/components/search-bar/search-bar.css';
import 'antd-mobile/es/components/input/input.css';

export interface SearchInputProps {
  value: string;
  placeholder: string;
  /** Names the box and its clear button for screen readers. */
  label: string;
  clearLabel: string;
  onChange: (value: string) => void;
  /** Enter (not while an IME is composing): the keyboard closes and the search runs. */
  onSearch?: (value: string) => void;
  onClear?: () => void;
}

/** A plain search input with antd-mobile SearchBar's markup and look, without its weight on the first screen (ADR 0029). */
export function SearchInput({ value, placeholder, label, clearLabel, onChange, onSearch, onClear }: SearchInputProps) {
  const [focused, setFocused] = useState(false);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.currentTarget.blur();
    onSearch?.(value);
  };
  return (
    <div className={focused ? 'adm-search-bar adm-search-bar-active' : 'adm-search-bar'}>
      <div className="adm-search-bar-input-box">
        <div className="adm-search-bar-input-box-icon">
          <SearchOutline />
        </div>
        <div className="adm-input adm-search-bar-input">
          <input
            className="adm-input-element"
            type="search"
            enterKeyHint="search"
            value={value}
            placeholder={placeholder}
            aria-label={label}
            onChange={(event) => onChange(event.target.value)}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
            onKeyDown={onKeyDown}
          />
          {value && (
            <div
              className="adm-input-clear"
              role="button"
              aria-label={clearLabel}
              // Keeps the focus (and the keyboard) in the box, as antd-mobile's clear button does.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                onChange('');
                onClear?.();
              }}
            >
              <CloseCircleFill />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
