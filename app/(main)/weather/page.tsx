import { requireViewer } from "@/components/layout/current-viewer";
import { WeatherCard } from "@/components/weather/weather-card";
import { routeMetadata } from "@/lib/i18n/metadata";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Weather");

/** The weather on its own page (issue 13): where a phone, which has no side column, reaches the card. */
async function WeatherPage() {
  const { viewer } = await requireViewer("Weather");
  if (viewer.isDeleted) return null;
  return <WeatherCard heading="h1" />;
}

export default withClientMessages("(main)/weather/page", WeatherPage);
