import { WorkerList } from "./worker-list";

export const metadata = { title: "Workers · Switchyard" };

export default function WorkersPage() {
  return (
    <>
      <h1>Workers</h1>
      <WorkerList />
    </>
  );
}
