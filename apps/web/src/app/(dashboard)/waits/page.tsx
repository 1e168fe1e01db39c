import { WaitList } from "./wait-list";

export const metadata = { title: "Waiting for you · Switchyard" };

export default function WaitsPage() {
  return (
    <>
      <h1>Waiting for you</h1>
      <WaitList />
    </>
  );
}
