"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import formStyles from "@/components/settings/settings-form.module.css";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import type { DeviceStatus } from "@/lib/client/push-device";
import type { PushDevicesDto } from "@/lib/validation/push";
import styles from "./device-push.module.css";

type Status = DeviceStatus["kind"] | "loading";

/** The subscription logic is loaded after the page (it reads the browser's state), never with the shell. */
const logic = () => import("@/lib/client/push-device");

/**
 * «Уведомления на этом устройстве» (docs/adr/0123): the switch that subscribes this browser to Web Push
 * (the browser's permission prompt only after the click), on /push and in the settings; with `devices`,
 * also the account's devices, each removable, this one marked.
 */
export function DevicePush({ initial, place }: { initial: PushDevicesDto; place: "push" | "settings" }) {
  const showDevices = place === "settings";
  const t = useTranslations("pushDevice");
  const [list, setList] = useState(initial);
  const [status, setStatus] = useState<Status>("loading");
  const [thisId, setThisId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Switching on is under way (after the permission): said under the switch (issue 44 item 2).
  const [connecting, setConnecting] = useState(false);
  // The push service did not answer in time: the message offers another try.
  const [timedOut, setTimedOut] = useState(false);
  // An installed app has no address bar: its help for a refused permission points to the phone's settings.
  const [app, setApp] = useState(false);
  // Each flip's number: an answer that comes after the switch gave up counts only if nothing came since.
  const flips = useRef(0);

  useEffect(() => {
    let live = true;
    void logic()
      .then(async (m) => {
        const s = await m.readStatus(initial);
        if (!live) return;
        setStatus(s.kind);
        setThisId(m.thisDeviceId());
        setApp(m.installedApp());
      })
      .catch((err: unknown) => {
        if (!live) return;
        setStatus("off");
        setError(err instanceof ApiError ? err.message : t("failed"));
      });
    return () => {
      live = false;
    };
  }, [initial, t]);

  async function flip(on: boolean) {
    const flip = ++flips.current;
    setBusy(true);
    setError(null);
    setTimedOut(false);
    try {
      const m = await logic();
      if (on) {
        setConnecting(true);
        const switchedOn = (answer: { deviceId: number; list: PushDevicesDto }) => {
          setList(answer.list);
          setThisId(answer.deviceId);
          setStatus("on");
        };
        const answer = await m.enablePush({
          onLate: (late) => {
            if (flips.current !== flip) return;
            switchedOn(late);
            setError(null);
            setTimedOut(false);
            notify({ status: "success", message: t("enabled") });
          },
        });
        switchedOn(answer);
      } else {
        await m.disablePush();
        setList((l) => ({ ...l, devices: l.devices.filter((d) => d.id !== thisId) }));
        setThisId(null);
        setStatus("off");
      }
      notify({ status: "success", message: t(on ? "enabled" : "disabled") });
    } catch (err) {
      const m = await logic();
      if (err instanceof m.PermissionRefused) {
        if (err.permission === "denied") setStatus("denied");
        else setError(t("dismissed"));
      } else if (err instanceof m.PushTimeout) {
        setTimedOut(true);
        setError(t("timeout", { seconds: Math.round(err.ms / 1000) }));
      } else setError(err instanceof ApiError ? err.message : t(on ? "failed" : "disableFailed"));
    } finally {
      setBusy(false);
      setConnecting(false);
    }
  }

  async function remove(id: number) {
    setBusy(true);
    setError(null);
    try {
      const own = await (await logic()).removeDevice(id);
      setList((l) => ({ ...l, devices: l.devices.filter((d) => d.id !== id) }));
      if (own) {
        setThisId(null);
        setStatus("off");
      }
      notify({ status: "success", message: t("removed") });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("removeFailed"));
    } finally {
      setBusy(false);
    }
  }

  const explain = status === "unsupported" ? t("unsupported") : status === "denied" ? t(app ? "deniedApp" : "denied") : t("hint");
  return (
    <div className={`${styles.wrap} ${styles[place]}`}>
      <div className={formStyles.switchRow}>
        <label htmlFor="push-this-device" className={formStyles.switchLabel}>
          <span className={styles.label}>{t("title")}</span>
          <span className={styles.hint} id="push-this-device-hint">
            {explain}
          </span>
        </label>
        <input
          id="push-this-device"
          type="checkbox"
          role="switch"
          className={status === "unsupported" || status === "denied" ? `${formStyles.switch} ${styles.blocked}` : formStyles.switch}
          aria-describedby="push-this-device-hint"
          checked={status === "on"}
          disabled={busy || status === "loading" || status === "unsupported" || status === "denied"}
          aria-busy={busy || status === "loading"}
          onChange={(e) => void flip(e.target.checked)}
        />
      </div>
      {connecting ? (
        <div className={styles.progress} data-testid="push-connecting">
          <Spinner label={t("connecting")} inline />
        </div>
      ) : null}
      {error && (
        <div className={styles.error} role="alert">
          <p>{error}</p>
          {timedOut ? (
            <Button variant="secondary" disabled={busy} onClick={() => void flip(true)}>
              {t("retry")}
            </Button>
          ) : null}
        </div>
      )}
      {showDevices && <DeviceList list={list} thisId={thisId} busy={busy || status === "loading"} onRemove={(id) => void remove(id)} />}
    </div>
  );
}

function DeviceList({ list, thisId, busy, onRemove }: { list: PushDevicesDto; thisId: number | null; busy: boolean; onRemove: (id: number) => void }) {
  const t = useTranslations("pushDevice");
  const format = useFormatter();
  const { zone: timeZone } = useReaderTimeZone();
  const date = (iso: string) => format.dateTime(new Date(iso), { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: timeZone || "UTC" });
  return (
    <section className={styles.devices} aria-labelledby="push-devices">
      <h3 id="push-devices" className={styles.devicesTitle}>
        {t("devicesTitle")}
      </h3>
      {list.devices.length === 0 ? (
        <p className={styles.hint}>{t("devicesEmpty")}</p>
      ) : (
        <ul className={styles.list}>
          {list.devices.map((d) => (
            <li key={d.id} className={styles.device} data-device-id={d.id}>
              <div className={styles.deviceText}>
                <span className={styles.label}>
                  {d.userAgentLabel || t("unknownDevice")}
                  {d.id === thisId && <span className={styles.mark}>{t("thisDevice")}</span>}
                </span>
                <span className={styles.hint}>
                  {t("language", { language: d.language })} · {t("created", { date: date(d.createdAt) })}
                </span>
                <span className={styles.hint}>{d.lastSuccessAt ? t("lastSuccess", { date: date(d.lastSuccessAt) }) : t("never")}</span>
              </div>
              <Button variant="secondary" disabled={busy} aria-label={t("removeLabel", { device: d.userAgentLabel || t("unknownDevice") })} onClick={() => onRemove(d.id)}>
                {t("remove")}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
