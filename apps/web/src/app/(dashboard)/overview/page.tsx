import { OverviewView } from "./overview-view";

export const metadata = { title: "Overview · Switchyard" };

export default function OverviewPage() {
  return <OverviewView />;
}
