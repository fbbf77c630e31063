import { icon, type IconProps } from "@/components/ui/icons";
import type { Condition } from "./conditions";

// Weather conditions as inline SVG in the house icon shape (components/ui/icons.tsx): they draw the same on
// every system, where an emoji needs a colour-emoji font the system may not have (docs/adr/0086).
const CLOUD_BASE = <path d="M4 14.9A7 7 0 1 1 15.7 8h1.8a4.5 4.5 0 0 1 2.5 8.24" />;

const Sun = icon(
  <>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2v2M12 20v2M4.93 4.93l1.41 1.41M17.66 17.66l1.41 1.41M2 12h2M20 12h2M6.34 17.66l-1.41 1.41M19.07 4.93l-1.41 1.41" />
  </>,
  "SunIcon",
);
const Moon = icon(<path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z" />, "MoonIcon");
const CloudSun = icon(
  <>
    <path d="M12 2v2M4.93 4.93l1.41 1.41M20 12h2M19.07 4.93l-1.41 1.41M15.95 12.65a4 4 0 0 0-5.93-4.13" />
    <path d="M13 22H7a5 5 0 1 1 4.9-6H13a3 3 0 0 1 0 6Z" />
  </>,
  "CloudSunIcon",
);
const Cloud = icon(<path d="M17.5 19H9a7 7 0 1 1 6.71-9h1.79a4.5 4.5 0 1 1 0 9Z" />, "CloudIcon");
const Fog = icon(
  <>
    {CLOUD_BASE}
    <path d="M16 17H7M17 21H9" />
  </>,
  "FogIcon",
);
const Drizzle = icon(
  <>
    {CLOUD_BASE}
    <path d="M8 19v1M8 14v1M16 19v1M16 14v1M12 21v1M12 16v1" />
  </>,
  "DrizzleIcon",
);
const Rain = icon(
  <>
    {CLOUD_BASE}
    <path d="M16 14v6M8 14v6M12 16v6" />
  </>,
  "RainIcon",
);
const FreezingRain = icon(
  <>
    {CLOUD_BASE}
    <path d="M16 14v2M8 14v2M12 16v2M16 20h.01M8 20h.01M12 22h.01" />
  </>,
  "FreezingRainIcon",
);
const Snow = icon(
  <>
    {CLOUD_BASE}
    <path d="M8 15h.01M8 19h.01M12 17h.01M12 21h.01M16 15h.01M16 19h.01" />
  </>,
  "SnowIcon",
);
const Thunder = icon(
  <>
    <path d="M6 16.33A7 7 0 1 1 15.71 8h1.79a4.5 4.5 0 0 1 .5 8.97" />
    <path d="m13 12-3 5h4l-3 5" />
  </>,
  "ThunderIcon",
);
const Thermometer = icon(<path d="M14 4v10.54a4 4 0 1 1-4 0V4a2 2 0 0 1 4 0Z" />, "ThermometerIcon");

const ICONS: Record<Condition, (p: IconProps) => React.JSX.Element> = {
  clear: Sun, clearNight: Moon, mostlyClear: CloudSun, partlyCloudy: CloudSun, overcast: Cloud, fog: Fog,
  drizzle: Drizzle, rain: Rain, freezingRain: FreezingRain, snow: Snow, showers: Rain, snowShowers: Snow,
  thunder: Thunder, unknown: Thermometer,
};

/** The icon of a weather condition (decorative: the condition's name is always written beside it). */
export function ConditionIcon({ condition, ...rest }: IconProps & { condition: Condition }) {
  const Icon = ICONS[condition];
  return <Icon {...rest} />;
}
