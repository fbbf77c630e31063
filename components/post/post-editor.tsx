"use client";

import * as Popover from "@radix-ui/react-popover";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { BoldIcon, BulletListIcon, ItalicIcon, LinkIcon, OrderedListIcon, QuoteIcon, StrikeIcon, UnderlineIcon } from "./post-icons";
import styles from "./post-editor.module.css";

/** Only what the server's sanitiser keeps (p, br, strong, em, u, s, a, ul, ol, li, blockquote, code, pre, h2, h3). */
const extensions = [
  StarterKit.configure({
    heading: { levels: [2, 3] },
    horizontalRule: false,
    link: {
      openOnClick: false,
      autolink: true,
      defaultProtocol: "https",
      protocols: ["http", "https", "mailto"],
      HTMLAttributes: { rel: "nofollow noopener ugc", target: null },
    },
  }),
];

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

type Props = {
  /** Initial HTML (edit mode); later changes come from the user only. */
  initialHtml: string;
  onChange: (html: string) => void;
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
};

/** The rich text of a post: Tiptap with a small toolbar (bold, italic, underline, strike, lists, quote, link). */
export function PostEditor({ initialHtml, onChange, labelId, describedBy, invalid }: Props) {
  const editor = useEditor({
    extensions,
    content: initialHtml,
    // Rendered on the server too: the editor mounts after hydration (Tiptap's advice for SSR).
    immediatelyRender: false,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        class: styles.content,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        "data-testid": "post-editor",
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML()),
  });

  return (
    <div className={`${styles.editor} ${invalid ? styles.invalid : ""}`}>
      {editor ? <Toolbar editor={editor} /> : <div className={styles.toolbar} aria-hidden="true" />}
      {editor ? <EditorContent editor={editor} /> : <div className={`${styles.content} ${styles.placeholder}`} />}
    </div>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const t = useTranslations("post.toolbar");
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      underline: e.isActive("underline"),
      strike: e.isActive("strike"),
      bulletList: e.isActive("bulletList"),
      orderedList: e.isActive("orderedList"),
      blockquote: e.isActive("blockquote"),
      link: e.isActive("link"),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t("label")}>
      <Tool label={t("bold")} active={state.bold} onClick={() => chain().toggleBold().run()}>
        <BoldIcon />
      </Tool>
      <Tool label={t("italic")} active={state.italic} onClick={() => chain().toggleItalic().run()}>
        <ItalicIcon />
      </Tool>
      <Tool label={t("underline")} active={state.underline} onClick={() => chain().toggleUnderline().run()}>
        <UnderlineIcon />
      </Tool>
      <Tool label={t("strike")} active={state.strike} onClick={() => chain().toggleStrike().run()}>
        <StrikeIcon />
      </Tool>
      <span className={styles.divider} aria-hidden="true" />
      <Tool label={t("bulletList")} active={state.bulletList} onClick={() => chain().toggleBulletList().run()}>
        <BulletListIcon />
      </Tool>
      <Tool label={t("orderedList")} active={state.orderedList} onClick={() => chain().toggleOrderedList().run()}>
        <OrderedListIcon />
      </Tool>
      <Tool label={t("quote")} active={state.blockquote} onClick={() => chain().toggleBlockquote().run()}>
        <QuoteIcon />
      </Tool>
      <LinkTool editor={editor} active={state.link} />
    </div>
  );
}

function Tool({ label, active, onClick, children }: { label: string; active: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className={styles.tool}
      aria-label={label}
      title={label}
      aria-pressed={active}
      // Keep the selection in the editor: a mouse press on the toolbar must not blur it.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

function LinkTool({ editor, active }: { editor: Editor; active: boolean }) {
  const t = useTranslations("post.toolbar");
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState("");
  const [error, setError] = useState(false);

  function apply() {
    const value = url.trim();
    if (!value) {
      editor.chain().focus().extendMarkRange("link").unsetLink().run();
      setOpen(false);
      return;
    }
    const href = SAFE_URL.test(value) ? value : /^[\w.+-]+@[\w-]+\.[\w.-]+$/.test(value) ? `mailto:${value}` : `https://${value}`;
    if (!SAFE_URL.test(href) || /\s/.test(href)) {
      setError(true);
      return;
    }
    const chain = editor.chain().focus().extendMarkRange("link");
    // With nothing selected, the address itself becomes the link text.
    if (editor.state.selection.empty && !active) chain.insertContent({ type: "text", text: value, marks: [{ type: "link", attrs: { href } }] }).run();
    else chain.setLink({ href }).run();
    setOpen(false);
  }

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setUrl((editor.getAttributes("link").href as string | undefined) ?? "");
          setError(false);
        }
      }}
    >
      <Popover.Trigger asChild>
        <button type="button" className={styles.tool} aria-label={t("link")} title={t("link")} aria-pressed={active} onMouseDown={(e) => e.preventDefault()}>
          <LinkIcon />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className={styles.linkPop} sideOffset={6} align="start">
          <form
            className={styles.linkForm}
            onSubmit={(e) => {
              e.preventDefault();
              e.stopPropagation();
              apply();
            }}
          >
            <label className={styles.linkLabel} htmlFor="post-link-url">
              {t("linkUrl")}
            </label>
            <input
              id="post-link-url"
              className={styles.linkInput}
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                setError(false);
              }}
              placeholder="https://"
              aria-invalid={error || undefined}
              autoComplete="url"
              inputMode="url"
            />
            {error ? <p className={styles.linkError}>{t("linkInvalid")}</p> : null}
            <div className={styles.linkActions}>
              {active ? (
                <Button
                  variant="ghost"
                  onClick={() => {
                    editor.chain().focus().extendMarkRange("link").unsetLink().run();
                    setOpen(false);
                  }}
                >
                  {t("linkRemove")}
                </Button>
              ) : null}
              <Button type="submit">{t("linkApply")}</Button>
            </div>
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
