"use client";

import type * as RadixMenu from "@radix-ui/react-dropdown-menu";
import type * as RadixPopover from "@radix-ui/react-popover";
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ButtonHTMLAttributes,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type Ref,
} from "react";

// Radix loads on intent, not with the page (docs/adr/0092): a menu or popover first renders a plain button
// that looks and reads like Radix's trigger (same classes, name, aria-haspopup, aria-expanded, data-state).
// Pointing at it or focusing it starts the import; once the module is there the real trigger takes its
// place (focus kept), and a press made before that is replayed on it, so the menu opens on that first press
// as Radix itself would have opened it (by pointer: focus on the menu; by keyboard: on its first item).

export type MenuModule = typeof RadixMenu;
export type PopoverModule = typeof RadixPopover;

/** What the trigger button shows and is called; the same props go to the plain and to the Radix trigger. */
export type LazyTriggerProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "children"> & {
  children: ReactNode;
  [data: `data-${string}`]: string | boolean | undefined;
};

type Intent = { kind: "key"; key: string } | { kind: "pointer"; pointerType: string } | { kind: "click" };

type LazyModule<T> = { load: () => Promise<T>; get: () => T | null; subscribe: (listener: () => void) => () => void };

/** A module imported once, on the first `load()`, shared by every trigger that needs it; a failed import is retried on the next intent. */
function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load() {
      pending ??= importer().then(
        (loaded) => {
          value = loaded;
          for (const listener of listeners) listener();
          return loaded;
        },
        (err: unknown) => {
          pending = null;
          throw err;
        },
      );
      return pending;
    },
  };
}

const menuModule = lazyModule<MenuModule>(() => import("@radix-ui/react-dropdown-menu"));
const popoverModule = lazyModule<PopoverModule>(() => import("@radix-ui/react-popover"));

/** The dropdown trigger opens on pointer-down (mouse) and on Enter, Space or ArrowDown; an assistive technology's click counts as Enter. */
function replayOnMenu(trigger: HTMLButtonElement, intent: Intent) {
  if (intent.kind === "pointer") {
    trigger.dispatchEvent(new window.PointerEvent("pointerdown", { bubbles: true, cancelable: true, button: 0, isPrimary: true, pointerType: intent.pointerType }));
    return;
  }
  trigger.focus();
  trigger.dispatchEvent(new window.KeyboardEvent("keydown", { bubbles: true, cancelable: true, key: intent.kind === "key" ? intent.key : "Enter" }));
}

/** The popover trigger toggles on click, whatever made it. */
function replayOnPopover(trigger: HTMLButtonElement) {
  trigger.focus();
  trigger.click();
}

type LazyRadixProps<T> = {
  module: LazyModule<T>;
  popup: "menu" | "dialog";
  /** Keys that open the popup from its trigger. */
  keys: string[];
  trigger: LazyTriggerProps;
  replay: (trigger: HTMLButtonElement, intent: Intent) => void;
  render: (loaded: T, triggerRef: Ref<HTMLButtonElement>) => ReactNode;
};

function LazyRadix<T>({ module, popup, keys, trigger, replay, render }: LazyRadixProps<T>) {
  const plain = useRef<HTMLButtonElement>(null);
  // The Radix trigger, through a callback ref: the effect below runs once it is in the document.
  const [real, setReal] = useState<HTMLButtonElement | null>(null);
  const intent = useRef<Intent | null>(null);
  const handFocus = useRef(false);
  // The plain button is still in the document when the module arrives: whether it has focus is read then.
  const subscribe = useCallback(
    (onChange: () => void) =>
      module.subscribe(() => {
        handFocus.current = plain.current !== null && document.activeElement === plain.current;
        onChange();
      }),
    [module],
  );
  // The server and hydration render the plain button; a page shown after the module has loaded renders Radix at once.
  const loaded = useSyncExternalStore(subscribe, module.get, () => null);

  useEffect(() => {
    if (!loaded || !real) return;
    if (handFocus.current) real.focus();
    handFocus.current = false;
    const wanted = intent.current;
    intent.current = null;
    if (wanted) replay(real, wanted);
  }, [loaded, real, replay]);

  if (loaded) return render(loaded, setReal);

  const load = () => {
    module.load().catch((err: unknown) => {
      intent.current = null;
      console.error("a menu or popover module did not load", err);
    });
  };
  const press = (wanted: Intent) => {
    intent.current ??= wanted;
    load();
  };
  return (
    <button
      {...trigger}
      ref={plain}
      type="button"
      aria-haspopup={popup}
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={load}
      onFocus={load}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        if (event.button === 0 && !event.ctrlKey) press({ kind: "pointer", pointerType: event.pointerType });
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        if (!keys.includes(event.key)) return;
        event.preventDefault();
        press({ kind: "key", key: event.key });
      }}
      onClick={() => press({ kind: "click" })}
    />
  );
}

const MenuContext = createContext<MenuModule | null>(null);

/** Radix's dropdown menu inside a LazyMenu's content (radio items shared by several menus use it). */
export function useRadixMenu(): MenuModule {
  const Menu = use(MenuContext);
  if (!Menu) throw new Error("useRadixMenu is for the content of a LazyMenu");
  return Menu;
}

/**
 * A Radix dropdown menu (modal: false, as every menu of the app) loaded on intent. `children` gets the
 * module and returns what goes inside `Menu.Root` after the trigger (the portal and its content).
 */
export function LazyMenu({ trigger, children }: { trigger: LazyTriggerProps; children: (Menu: MenuModule) => ReactNode }) {
  return (
    <LazyRadix
      module={menuModule}
      popup="menu"
      keys={MENU_KEYS}
      trigger={trigger}
      replay={replayOnMenu}
      render={(Menu, ref) => (
        <MenuContext value={Menu}>
          <Menu.Root modal={false}>
            <Menu.Trigger ref={ref} {...trigger} />
            {children(Menu)}
          </Menu.Root>
        </MenuContext>
      )}
    />
  );
}

const MENU_KEYS = ["Enter", " ", "ArrowDown"];
const POPOVER_KEYS = ["Enter", " "];

/** A controlled Radix popover loaded on intent; `children` returns what goes inside `Popover.Root` after the trigger. */
export function LazyPopover({
  trigger,
  open,
  onOpenChange,
  children,
}: {
  trigger: LazyTriggerProps;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: (Popover: PopoverModule) => ReactNode;
}) {
  return (
    <LazyRadix
      module={popoverModule}
      popup="dialog"
      keys={POPOVER_KEYS}
      trigger={trigger}
      replay={replayOnPopover}
      render={(Popover, ref) => (
        <Popover.Root open={open} onOpenChange={onOpenChange}>
          <Popover.Trigger ref={ref} {...trigger} />
          {children(Popover)}
        </Popover.Root>
      )}
    />
  );
}
